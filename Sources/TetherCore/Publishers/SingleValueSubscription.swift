import Synchronization

/// The subscription behind ``Just``, `Optional.Publisher` and `Result.Publisher` with a success:
/// it holds one value and, on the first positive demand, delivers it and then finishes.
///
/// Whoever takes the subscriber out of the lock delivers, so the value goes out exactly once
/// however many threads request at the same time, and a request made from inside `receive(_:)`
/// finds nothing left to do. Delivery happens on the thread that requested. A subscriber that
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
    /// `nil` once the value went out or the subscription was cancelled.
    @usableFromInline
    internal let downstream: Locked<Downstream?>

    @usableFromInline
    internal let value: Downstream.Input

    /// Set by `cancel`; checked between the value and the completion.
    @usableFromInline
    internal let cancelled = Atomic<Bool>(false)

    /// `handingOver` until `start` has handed the subscription over, `requestedEarly` when
    /// demand came meanwhile, `started` after.
    @usableFromInline
    internal let phase = Atomic<UInt8>(HandOverPhase.handingOver)

    /// The name of the publisher, used by `description` and in the trap message.
    @usableFromInline
    internal let publisherName: String

    @inlinable
    internal init(downstream: Downstream, value: Downstream.Input, publisherName: String) {
        self.downstream = Locked(downstream)
        self.value = value
        self.publisherName = publisherName
        SubscriptionLedger.enter(self)
    }

    deinit {
        SubscriptionLedger.leave(self)
    }

    /// Hands the subscription to `downstream`, then delivers if it asked meanwhile.
    @inlinable
    internal func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
        let (_, previous) = phase.compareExchange(
            expected: HandOverPhase.handingOver, desired: HandOverPhase.started, ordering: .acquiringAndReleasing)
        if previous == HandOverPhase.requestedEarly {
            phase.store(HandOverPhase.started, ordering: .releasing)
            deliver()
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(
            demand > 0, "Demand must not be zero: the \(publisherName) subscription was asked for .none")
        let (early, _) = phase.compareExchange(
            expected: HandOverPhase.handingOver, desired: HandOverPhase.requestedEarly, ordering: .acquiringAndReleasing)
        if !early {
            deliver()
        }
    }

    /// Delivers the value and the completion, once, to whoever asked first.
    @inlinable
    internal func deliver() {
        let taken = downstream.withLock { downstream -> Downstream? in
            defer { downstream = nil }
            return downstream
        }
        guard let taken else { return }
        _ = taken.receive(value)
        if !cancelled.load(ordering: .acquiring) {
            taken.receive(completion: .finished)
        }
    }

    @inlinable
    internal func cancel() {
        cancelled.store(true, ordering: .releasing)
        let released = downstream.withLock { downstream -> Downstream? in
            defer { downstream = nil }
            return downstream
        }
        _ = released
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
/// stands: still being handed over, asked for during the hand-over, or handed over.
@usableFromInline
internal enum HandOverPhase {
    @usableFromInline static let handingOver: UInt8 = 0
    @usableFromInline static let requestedEarly: UInt8 = 1
    @usableFromInline static let started: UInt8 = 2
}
