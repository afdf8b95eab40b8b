import Synchronization

/// The subscription behind ``Just``, `Optional.Publisher` and `Result.Publisher` with a success:
/// it holds one value and, on the first positive demand, delivers it and then finishes.
///
/// Whoever sets ``taken`` with one atomic exchange owns the subscriber, so the value goes out
/// exactly once however many threads request at the same time, a cancel that comes first lets go
/// of the subscriber, and a request made from inside `receive(_:)` finds nothing left to do.
/// Delivery happens inside the request that asked for it, on its thread, as Combine's does: a
/// request made inside `receive(subscription:)` delivers the value and the completion before it
/// returns, so a cancel after it finds them delivered. A subscriber that cancels from inside
/// `receive(_:)` gets no completion after it.
///
/// `request` and `cancel` reach this class through `any Subscription`, which runs them
/// unspecialised; they forward to a specialised entry (see ``ControlSignal``).
@usableFromInline
internal final class SingleValueSubscription<Downstream: Subscriber>:
    HandOffSubscriptionBase<Downstream.Input, Downstream?>, Subscription, SpecializedControl,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    /// Set by whoever owns ``downstream`` from then on, to deliver to it or to let go of it.
    @usableFromInline
    internal let taken = Atomic<Bool>(false)

    /// Set by `cancel`; checked between the value and the completion.
    @usableFromInline
    internal let cancelled = Atomic<Bool>(false)

    /// The subscriber, kept by the base class (so that `deinit`, which runs unspecialised, looks
    /// up no type to destroy it); `nil` once the value went out or the subscription was
    /// cancelled. Touched only by the thread that set ``taken``.
    @inlinable
    internal var downstream: Downstream? {
        get { serial }
        set { serial = newValue }
    }

    /// The value, kept by the base class as its state.
    @inlinable
    internal var value: Downstream.Input { state }

    /// The name of the publisher, used by `description` and in the trap message.
    @usableFromInline
    internal let publisherName: String

    /// `request` and `cancel`, specialised (see ``ControlSignal``).
    @usableFromInline
    internal let control: (AnyObject, ControlSignal) -> Void

    @inlinable
    internal init(downstream: Downstream, value: Downstream.Input, publisherName: String) {
        self.publisherName = publisherName
        control = SingleValueSubscription.controlEntry
        super.init(state: value, serial: downstream)
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription to `downstream`.
    @inlinable
    internal func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        control(self, .request(demand))
    }

    @inlinable
    internal func cancel() {
        control(self, .cancel)
    }

    @inlinable
    internal func requestNow(_ demand: Subscribers.Demand) {
        precondition(
            demand > 0, "Demand must not be zero: the \(publisherName) subscription was asked for .none")
        guard !taken.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let owned = downstream else { return }
        downstream = nil
        _ = owned.receive(value)
        if !cancelled.load(ordering: .acquiring) {
            owned.receive(completion: .finished)
        }
    }

    @inlinable
    internal func cancelNow() {
        cancelled.store(true, ordering: .releasing)
        if !taken.exchange(true, ordering: .acquiringAndReleasing) {
            downstream = nil
        }
    }

    @usableFromInline
    internal var description: String { publisherName }

    @usableFromInline
    internal var customMirror: Mirror {
        Mirror(self, unlabeledChildren: CollectionOfOne(value), ancestorRepresentation: .suppressed)
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
