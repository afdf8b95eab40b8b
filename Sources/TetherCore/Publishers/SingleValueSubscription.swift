import Synchronization

/// The subscription behind ``Just``, `Optional.Publisher` and `Result.Publisher` with a success:
/// it holds one value and, on the first positive demand, delivers it and then finishes.
///
/// Whoever takes the subscriber out of the lock delivers, so the value goes out exactly once
/// however many threads request at the same time, and a request made from inside `receive(_:)`
/// finds nothing left to do. Delivery happens on the thread that requested. A subscriber that
/// cancels from inside `receive(_:)` gets no completion after it.
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

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(
            demand > 0, "Demand must not be zero: the \(publisherName) subscription was asked for .none")
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
