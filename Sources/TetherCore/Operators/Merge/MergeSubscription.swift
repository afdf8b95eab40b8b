/// The subscription of every merge publisher: locks a ``MergeState`` and performs its steps.
///
/// The downstream is a plain stored property because only the drainer the machine names calls
/// it, and only the drainer (or the canceller, when nobody drains) lets go of it. No lock is held
/// while calling out: requests, cancels and deliveries all happen after `withLock` returns.
@usableFromInline
internal final class MergeSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal let machine: Locked<MergeState>

    /// Touched only by the drainer, or by `cancel` when the machine says nobody drains: the
    /// machine rules out overlapping access, so the dynamic exclusivity check is skipped.
    @usableFromInline
    @exclusivity(unchecked)
    internal var downstream: Downstream?

    /// The subscriber again, kept for the subscription's whole life, past the end and a cancel, as
    /// Combine's merge keeps it (OpenCombine's `MergeTests` lifecycle tests, run against
    /// Combine); `downstream` still says whether it is delivered to.
    @usableFromInline
    internal let heldSubscriber: Downstream

    @inlinable
    internal init(downstream: Downstream, upstreams: Int) {
        self.downstream = downstream
        heldSubscriber = downstream
        machine = Locked(MergeState(upstreams: upstreams))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription downstream; the upstreams are subscribed afterwards, as Combine
    /// does, so demand requested from inside `receive(subscription:)` reaches them at once.
    @inlinable
    internal func start() {
        downstream?.receive(subscription: self)
        drain(machine.withLock { $0.delivered(.none) })
    }

    /// Subscribes to upstream number `index`.
    @inlinable
    internal func subscribe<Upstream: Publisher>(_ upstream: Upstream, at index: Int)
    where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
        upstream.subscribe(Side(self, index: index))
    }

    @inlinable
    internal func sideReceive(_ index: Int, subscription: any Subscription) {
        if let demand = machine.withLock({ $0.attach(index, subscription) }) {
            subscription.request(demand)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    internal func sideReceive(_ index: Int, _ input: Downstream.Input) -> Subscribers.Demand {
        let arrival = machine.withLock { $0.receive(index, input) }
        guard case .deliverNow(let refill) = arrival else { return .none }
        // Borrowed where it is kept: the machine names this thread the drainer, and a cancel
        // meanwhile leaves the release to it.
        let more = InPlace.receive(input, by: &downstream)
        // The usual case, nothing queued meanwhile, settles without building a `Step`.
        if let step = machine.withLock({ $0.settle(more) ? nil : $0.delivered(more) }) {
            drain(consume step)
        }
        return refill ? .max(1) : .none
    }

    @inlinable
    internal func sideReceive(_ index: Int, completion: Subscribers.Completion<Downstream.Failure>) {
        let (others, step) = machine.withLock { $0.complete(index, completion.eraseError()) }
        for subscription in others { subscription.cancel() }
        drain(consume step)
    }

    /// Asks for more; `.none` is ignored, as Combine's merge ignores it.
    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        let (unlimit, step) = machine.withLock { $0.request(demand) }
        for subscription in unlimit { subscription.request(.unlimited) }
        drain(consume step)
    }

    @inlinable
    internal func cancel() {
        let (upstreams, release) = machine.withLock { $0.cancel() }
        if release { downstream = nil }
        for subscription in upstreams { subscription.cancel() }
    }

    /// Runs the machine's steps as the drainer until it goes idle. The step is the drain's own, so
    /// that a value is let go of once delivered, not kept by the caller until the drain ends.
    @inlinable
    internal func drain(_ step: consuming MergeState.Step) {
        while true {
            switch step {
            case .idle:
                return
            case .release:
                downstream = nil
                return
            case .deliver(let value, let refill):
                let more = InPlace.receive(value as! Downstream.Input, by: &downstream)
                refill?.request(.max(1))
                step = machine.withLock { $0.delivered(more) }
            case .complete(let completion):
                let released = downstream
                downstream = nil
                released?.receive(completion: completion.restoringFailure(Downstream.Failure.self))
                return
            }
        }
    }

    @usableFromInline
    internal var description: String { "Merge" }

    @usableFromInline
    internal var customMirror: Mirror {
        let demand = machine.withLock { $0.demand }
        return Mirror(self, children: ["downstreamDemand": demand])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

extension MergeSubscription: SideOwner {
    @usableFromInline internal var sideDescription: String { "Merge" }

    @usableFromInline
    internal func sideMirrorChildren(_ index: Int) -> KeyValuePairs<String, Any> { ["index": index] }
}

extension Subscribers.Completion where Failure == any Error {
    /// Undoes `eraseError()` for a completion that came from an upstream of failure type `F`.
    @inlinable
    internal func restoringFailure<F: Error>(_: F.Type) -> Subscribers.Completion<F> {
        switch self {
        case .finished: return .finished
        case .failure(let error): return .failure(error as! F)
        }
    }
}
