import Foundation
import TetherCore

extension NotificationCenter {
    /// Returns a publisher that emits events when broadcasting notifications.
    /// - Parameters:
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification. If `nil`, the publisher emits
    ///     elements for any object producing a notification with the given name.
    /// - Returns: A publisher that emits events when broadcasting notifications.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits elements when broadcasting notifications.
    ///
    /// Each subscription adds its own observer to the center when the subscriber first demands
    /// a value, and removes it when the subscription is cancelled. Notifications are delivered
    /// on the thread that posts them, one at a time: one posted while another is being
    /// delivered (from inside the subscriber, or on another thread) is delivered right after it,
    /// by the thread already delivering. A notification posted while the subscriber has no
    /// outstanding demand is dropped. The publisher never completes and never fails.
    /// Requesting `.none` is a contract violation and traps.
    public struct Publisher: TetherCore.Publisher, @unchecked Sendable {
        // @unchecked Sendable: its properties are constants; the center and the object (not
        // `Sendable` on Linux) are only used to add and remove an observer, which
        // NotificationCenter allows from any thread.

        /// The kind of values published by this publisher.
        public typealias Output = Notification

        /// The kind of errors this publisher might publish: it never fails.
        public typealias Failure = Never

        /// The notification center this publisher uses as a source.
        public let center: NotificationCenter

        /// The name of notifications published by this publisher.
        public let name: Notification.Name

        /// The object posting the named notification; `nil` for any object.
        public let object: AnyObject?

        /// Creates a publisher that emits events when broadcasting notifications.
        /// - Parameters:
        ///   - center: The notification center to publish notifications for.
        ///   - name: The name of the notification to publish.
        ///   - object: The object posting the named notification. If `nil`, the publisher emits
        ///     elements for any object producing a notification with the given name.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Attaches `subscriber`; its observer is added on its first demand.
        /// - Parameter subscriber: The subscriber to attach.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            subscriber.receive(subscription: NotificationSubscription(downstream: subscriber, publisher: self))
        }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Returns whether two publishers observe the same center, for the same name and the same
    /// object (centers and objects compare by identity).
    /// - Parameters:
    ///   - lhs: A notification center publisher to compare.
    ///   - rhs: Another notification center publisher to compare.
    /// - Returns: `true` if the publishers have the same `center`, `name` and `object`.
    public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}

/// A notification subscription, seen from its observer block, whatever its subscriber's type.
private protocol NotificationReceiver: AnyObject, Sendable {
    func receive(_ notification: Notification)
}

/// One subscriber's observer of a notification center.
///
/// The center holds the observer's block, and the block holds the subscription, so a subscriber
/// that never cancels keeps both alive, as in Combine; `cancel` removes the observer and lets go
/// of the subscriber.
// @unchecked Sendable: the subscriber, the demand, the observer and the notifications left for
// the delivering thread live in `state`, touched only under its lock.
private final class NotificationSubscription<Downstream: Subscriber>: Subscription, NotificationReceiver,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    private enum Observer {
        case none
        /// `addObserver` is under way outside the lock.
        case adding
        case added(any NSObjectProtocol)
    }

    private struct State {
        /// `nil` once cancelled.
        var downstream: Downstream?
        var demand: Subscribers.Demand = .none
        var observer: Observer = .none
        /// Notifications posted from inside a delivery, on the delivering thread; their demand
        /// is taken.
        var left = RingBuffer<Notification>()
    }

    private let state: Locked<State>
    /// Whose turn it is to call into the subscriber: a notification posted on another thread
    /// while one is delivered waits, then is delivered by its own thread.
    private let turn = DownstreamTurn()
    private let publisher: NotificationCenter.Publisher

    init(downstream: Downstream, publisher: NotificationCenter.Publisher) {
        state = Locked(State(downstream: downstream))
        self.publisher = publisher
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: NotificationCenter.Publisher was asked for .none")
        let observes = state.withLock { state -> Bool in
            guard state.downstream != nil else { return false }
            state.demand += demand
            guard case .none = state.observer else { return false }
            state.observer = .adding
            return true
        }
        guard observes else { return }
        // Through the non-generic protocol: a `@Sendable` block must not capture the
        // subscriber's metatype.
        let receiver: any NotificationReceiver = self
        let observer = publisher.center.addObserver(
            forName: publisher.name, object: publisher.object, queue: nil
        ) { notification in
            receiver.receive(notification)
        }
        let cancelledMeanwhile = state.withLock { state -> Bool in
            guard state.downstream != nil else { return true }
            state.observer = .added(observer)
            return false
        }
        if cancelledMeanwhile {
            publisher.center.removeObserver(observer)
        }
    }

    func receive(_ notification: Notification) {
        let ranInTurn = turn.run {
            let target = state.withLock { state -> Downstream? in
                guard state.downstream != nil, state.demand > 0 else { return nil }
                state.demand -= 1
                return state.downstream
            }
            guard let target else { return }
            add(target.receive(notification))
            while let (next, downstream) = takeLeft() {
                add(downstream.receive(next))
            }
        }
        if !ranInTurn {
            state.withLock { state in
                guard state.downstream != nil, state.demand > 0 else { return }
                state.demand -= 1
                state.left.append(notification)
            }
        }
    }

    private func add(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        state.withLock { state in
            if state.downstream != nil { state.demand += more }
        }
    }

    /// The oldest notification posted from inside a delivery, with the subscriber to give it to.
    private func takeLeft() -> (Notification, Downstream)? {
        state.withLock { state -> (Notification, Downstream)? in
            guard let downstream = state.downstream, let next = state.left.popFirst() else { return nil }
            return (next, downstream)
        }
    }

    func cancel() {
        // What the state held is released outside the lock, with these locals.
        let (released, observer, dropped) = state.withLock {
            state -> (Downstream?, Observer, RingBuffer<Notification>) in
            defer {
                state.downstream = nil
                state.observer = .none
                state.left = RingBuffer()
            }
            return (state.downstream, state.observer, state.left)
        }
        guard released != nil else { return }
        _ = dropped
        if case .added(let observer) = observer {
            publisher.center.removeObserver(observer)
        }
    }

    var description: String { "NotificationCenter Observer" }

    var customMirror: Mirror {
        Mirror(self, children: ["center": publisher.center, "name": publisher.name, "object": publisher.object as Any])
    }

    var playgroundDescription: Any { description }
}
