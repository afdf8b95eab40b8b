import Foundation
import Synchronization
import TetherCore

/// One subscriber's observer of a notification center: the subscription behind
/// ``Foundation/NotificationCenter/Publisher``.
///
/// As in Combine, the observer is added as the subscription is made, before the subscriber has
/// it (what is posted meanwhile finds no demand and is dropped), and removed by `cancel`, which
/// also lets go of the subscriber and of the center. The center's observer block holds the
/// subscription weakly, as Combine's does: a subscriber that keeps its subscription keeps both
/// alive until it cancels, and a subscription its subscriber lets go of without cancelling is
/// gone and delivers nothing more (its block stays in the center, empty, as in Combine).
///
/// The publisher's `receive(subscriber:)` is inlinable, so this subscription is specialised where
/// the chain is subscribed, and so is the observer block, made in the initialiser: each
/// notification runs specialised code down the whole chain (see "Specialised control entries" in
/// Docs/FastWithoutTheSpecialiser.md).
///
/// `@unchecked Sendable`: the subscriber, the demand, the center and the observer live in
/// `state`, touched only under its lock; `cancelled` is atomic and the rest is immutable.
@usableFromInline
internal final class NotificationSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
    @usableFromInline
    internal struct State {
        /// `nil` once cancelled.
        @usableFromInline var downstream: Downstream?
        @usableFromInline var demand = Subscribers.Demand.none
        /// `nil` once cancelled: the subscription lets go of the center, as Combine's does.
        @usableFromInline var center: NotificationCenter?
        /// The observer the center returned; `nil` once cancelled.
        @usableFromInline var observer: (any NSObjectProtocol)?

        @inlinable
        init(downstream: Downstream, center: NotificationCenter) {
            self.downstream = downstream
            self.center = center
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
    internal let name: Notification.Name

    @usableFromInline
    internal let object: AnyObject?

    @inlinable
    internal init(downstream: Downstream, publisher: NotificationCenter.Publisher) {
        state = Locked(State(downstream: downstream, center: publisher.center))
        name = publisher.name
        object = publisher.object
        Ledger.enter(self)
        // The block is `@Sendable` and must not capture `Downstream`'s metatype, so it reaches
        // this subscription's specialised `receive` through a closure made here, where the type
        // is known, carried across threads in an `Unchecked`, as Combine delivers a notification
        // to any subscriber on the posting thread. A captured `weak let` rather than
        // `[weak self]`, whose every read the run time checks for exclusivity.
        weak let target = self
        let delivery = Unchecked({ (notification: Notification) in target?.receive(notification) })
        let observer = publisher.center.addObserver(forName: name, object: object, queue: nil) { notification in
            delivery.value(notification)
        }
        // Nobody has the subscription yet, so nothing can have cancelled it.
        state.withLock { $0.observer = observer }
    }

    deinit {
        Ledger.leave(self)
    }

    /// Adds to the demand. As in Combine, a request for `.none` does nothing (it does not trap,
    /// as most publishers' subscriptions do).
    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        add(demand)
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
        let (released, center, observer) = state.withLock {
            state -> (Downstream?, NotificationCenter?, (any NSObjectProtocol)?) in
            defer {
                state.downstream = nil
                state.center = nil
                state.observer = nil
            }
            return (state.downstream, state.center, state.observer)
        }
        guard released != nil, let center, let observer else { return }
        center.removeObserver(observer)
    }

    @usableFromInline
    internal var description: String { "NotificationCenter Observer" }

    @usableFromInline
    internal var customMirror: Mirror {
        let (center, demand) = state.withLock { ($0.center, $0.demand) }
        return Mirror(
            self, children: ["center": center as Any, "name": name, "object": object as Any, "demand": demand])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
