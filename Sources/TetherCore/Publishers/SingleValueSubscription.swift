import Synchronization

/// The subscription behind ``Just``, `Optional.Publisher` and `Result.Publisher` with a success:
/// it holds one value and, on the first positive demand, delivers it and then finishes.
///
/// Whoever moves its phase to `taken` with one atomic exchange owns the subscriber, so the value
/// goes out exactly once however many threads request at the same time, a cancel that comes
/// first lets go of the subscriber, and a request made from inside `receive(_:)` finds nothing
/// left to do. Delivery happens on the thread that requested. A subscriber that
/// cancels from inside `receive(_:)` gets no completion after it.
///
/// Demand asked for while the subscription is being handed over (inside
/// `receive(subscription:)`, as most subscribers do) is served by ``start(_:)``, which runs in the
/// publisher's `receive(subscriber:)`, specialised in the caller's module; `request` is reached
/// through `any Subscription` and runs unspecialised, so it only records that demand then.
@usableFromInline
internal final class SingleValueSubscription<Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    /// Who may touch ``downstream``: see ``HandOverPhase``. Whoever moves it to `taken` owns the
    /// downstream from then on, to deliver to it or to let go of it.
    @usableFromInline
    internal let phase = Atomic<UInt8>(HandOverPhase.handingOver)

    /// Set by `cancel`; checked between the value and the completion.
    @usableFromInline
    internal let cancelled = Atomic<Bool>(false)

    /// `nil` once the value went out or the subscription was cancelled. Touched only by the
    /// thread that moved ``phase`` to `taken` (so the run-time exclusivity check is left out);
    /// a plain optional rather than a lock's state, because this class's `deinit` runs
    /// unspecialised, where every generic wrapper costs a run-time type lookup.
    @usableFromInline @exclusivity(unchecked)
    internal var downstream: Downstream?

    @usableFromInline
    internal let value: Downstream.Input

    /// The name of the publisher, used by `description` and in the trap message.
    @usableFromInline
    internal let publisherName: String

    @inlinable
    internal init(downstream: Downstream, value: Downstream.Input, publisherName: String) {
        self.downstream = downstream
        self.value = value
        self.publisherName = publisherName
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription to `downstream`, then delivers if it asked meanwhile.
    @inlinable
    internal func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
        let (_, previous) = phase.compareExchange(
            expected: HandOverPhase.handingOver, desired: HandOverPhase.started, ordering: .acquiringAndReleasing)
        if previous == HandOverPhase.requestedEarly, take(from: HandOverPhase.requestedEarly) {
            deliver()
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(
            demand > 0, "Demand must not be zero: the \(publisherName) subscription was asked for .none")
        let (early, _) = phase.compareExchange(
            expected: HandOverPhase.handingOver, desired: HandOverPhase.requestedEarly, ordering: .acquiringAndReleasing
        )
        if !early, take(from: HandOverPhase.started) {
            deliver()
        }
    }

    /// Moves ``phase`` from `expected` to `taken`: `true` if this call now owns the downstream.
    @inlinable
    internal func take(from expected: UInt8) -> Bool {
        phase.compareExchange(expected: expected, desired: HandOverPhase.taken, ordering: .acquiringAndReleasing)
            .exchanged
    }

    /// Delivers the value and the completion, for the owner of the downstream.
    @inlinable
    internal func deliver() {
        guard let taken = downstream else { return }
        downstream = nil
        _ = taken.receive(value)
        if !cancelled.load(ordering: .acquiring) {
            taken.receive(completion: .finished)
        }
    }

    @inlinable
    internal func cancel() {
        cancelled.store(true, ordering: .releasing)
        var current = phase.load(ordering: .acquiring)
        while current != HandOverPhase.taken {
            let (exchanged, original) = phase.compareExchange(
                expected: current, desired: HandOverPhase.taken, ordering: .acquiringAndReleasing)
            if exchanged {
                downstream = nil
                return
            }
            current = original
        }
    }

    @usableFromInline
    internal var description: String { publisherName }

    @usableFromInline
    internal var customMirror: Mirror {
        Mirror(self, unlabeledChildren: CollectionOfOne(value))
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

/// Where a subscription that serves early demand from its publisher's `receive(subscriber:)`
/// stands: still being handed over, asked for during the hand-over, handed over, or (for
/// ``SingleValueSubscription``) its downstream taken to deliver to or to let go of.
@usableFromInline
internal enum HandOverPhase {
    @usableFromInline static let handingOver: UInt8 = 0
    @usableFromInline static let requestedEarly: UInt8 = 1
    @usableFromInline static let started: UInt8 = 2
    @usableFromInline static let taken: UInt8 = 3
}
