import Foundation
import Synchronization
import TetherCore

/// One subscriber's observer of a notification center: the subscription behind
/// ``Foundation/NotificationCenter/Publisher``.
///
/// The center holds the observer's block, and the block holds the subscription, so a subscriber
/// that never cancels keeps both alive, as in Combine; `cancel` removes the observer and lets go
/// of the subscriber.
///
/// The publisher's `receive(subscriber:)` is inlinable, so this subscription is specialised where
/// the chain is subscribed, and the observer block reaches it through ``deliveryEntry``, made in
/// the initialiser where `Downstream` is known: each notification then runs specialised code down
/// the whole chain. Through a protocol witness, as a `@Sendable` block that must not capture the
/// subscriber's metatype would otherwise call it, every notification ran the chain unspecialised,
/// with run-time type lookups at each stage (see "Specialised control entries" in
/// Docs/FastWithoutTheSpecialiser.md).
///
/// `@unchecked Sendable`: the subscriber, the demand and the observer live in `state`, touched
/// only under its lock; `cancelled` is atomic and the rest is immutable.
@usableFromInline
internal final class NotificationSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    @usableFromInline
    internal enum Observer {
        case none
        /// `addObserver` is under way outside the lock.
        case adding
        case added(any NSObjectProtocol)
    }

    @usableFromInline
    internal struct State {
        /// `nil` once cancelled.
        @usableFromInline var downstream: Downstream?
        @usableFromInline var demand = Subscribers.Demand.none
        @usableFromInline var observer = Observer.none

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        /// Takes one of the demand for a notification: the subscriber to deliver it to, or `nil`
        /// when cancelled or without demand (the notification is dropped).
        @inlinable
        mutating func take() -> Downstream? {
            guard downstream != nil, demand > 0 else { return nil }
            demand -= 1
            return downstream
        }
    }

    @usableFromInline
    internal let state: Locked<State>

    /// Whose turn it is to call into the subscriber: a notification posted on another thread
    /// while one is delivered waits, then is delivered by its own thread.
    @usableFromInline
    internal let turn = DownstreamTurn()

    /// Set by `cancel`: a notification that took its demand before the cancel and waited for its
    /// turn is then dropped.
    @usableFromInline
    internal let cancelled = Atomic<Bool>(false)

    @usableFromInline
    internal let publisher: NotificationCenter.Publisher

    /// How a notification gets in: given this subscription, runs its specialised
    /// ``receive(_:)``. Not `@Sendable`, as it holds `Downstream`'s metatype; the observer block
    /// carries it across threads in an `Unchecked`, as Combine delivers a notification to any
    /// subscriber on the posting thread.
    @usableFromInline
    internal let deliveryEntry: (AnyObject, Notification) -> Void

    @inlinable
    internal init(downstream: Downstream, publisher: NotificationCenter.Publisher) {
        state = Locked(State(downstream: downstream))
        self.publisher = publisher
        deliveryEntry = { object, notification in
            unsafeDowncast(object, to: NotificationSubscription.self).receive(notification)
        }
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: NotificationCenter.Publisher was asked for .none")
        let observes = state.withLock { state -> Bool in
            guard state.downstream != nil else { return false }
            state.demand += demand
            guard case .none = state.observer else { return false }
            state.observer = .adding
            return true
        }
        guard observes else { return }
        let delivery = Unchecked((entry: deliveryEntry, subscription: self as AnyObject))
        let observer = publisher.center.addObserver(
            forName: publisher.name, object: publisher.object, queue: nil
        ) { notification in
            delivery.value.entry(delivery.value.subscription, notification)
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

    /// A notification the center posted: delivered in this thread's turn if the subscriber has
    /// demand for it, or, posted from inside a delivery on this thread, nested in it, as in
    /// Combine. As in Combine, the demand is taken when the notification is posted, before the
    /// poster waits for a delivery under way on another thread: one posted while the subscriber
    /// has none left is dropped at once, even if that delivery then returns more.
    @inlinable
    internal func receive(_ notification: Notification) {
        guard let target = state.withLock({ $0.take() }) else { return }
        turn.nesting {
            guard !cancelled.load(ordering: .acquiring) else { return }
            add(target.receive(notification))
        }
    }

    @inlinable
    internal func add(_ more: Subscribers.Demand) {
        guard more > 0 else { return }
        state.withLock { state in
            if state.downstream != nil { state.demand += more }
        }
    }

    @inlinable
    internal func cancel() {
        cancelled.store(true, ordering: .releasing)
        // What the state held is released outside the lock, with these locals.
        let (released, observer) = state.withLock { state -> (Downstream?, Observer) in
            defer {
                state.downstream = nil
                state.observer = .none
            }
            return (state.downstream, state.observer)
        }
        guard released != nil else { return }
        if case .added(let observer) = observer {
            publisher.center.removeObserver(observer)
        }
    }

    @usableFromInline
    internal var description: String { "NotificationCenter Observer" }

    @usableFromInline
    internal var customMirror: Mirror {
        Mirror(self, children: ["center": publisher.center, "name": publisher.name, "object": publisher.object as Any])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
