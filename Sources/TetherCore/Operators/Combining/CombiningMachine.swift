/// What ``CombiningStorage`` needs of a zip's or combine-latest's state machine: one machine per
/// family serves every arity, over upstreams indexed by position. Every method runs under the
/// storage's lock and calls nothing; the outcome is performed after the lock is released.
@usableFromInline
internal protocol CombiningMachine {
    /// The family's name, as subscriptions describe themselves ("Zip", "CombineLatest").
    static var name: StaticString { get }

    init(upstreams: Int)

    /// What the downstream has asked for and not yet received.
    var demand: Subscribers.Demand { get }

    /// Upstream `index` handed over its subscription: the demand to ask it for, or `nil` to
    /// cancel it (a second subscription, or the stream has ended).
    mutating func attach(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand?

    mutating func outcome(receiving value: Any, at index: Int) -> CombiningOutcome

    mutating func complete(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> CombiningOutcome

    mutating func request(_ more: Subscribers.Demand) -> CombiningOutcome

    /// The drainer's call into the downstream returned `more`: what to do next.
    mutating func delivered(_ more: Subscribers.Demand) -> CombiningOutcome

    /// The upstreams to cancel, and whether the caller must let go of the downstream (nobody is
    /// draining).
    mutating func cancel() -> (cancel: [any Subscription], release: Bool)
}

/// One upstream of a zip or combine-latest.
@usableFromInline
internal enum CombiningChild {
    case awaitingSubscription
    case active(any Subscription)
    /// Finished, or let go of when the stream ended.
    case done
}

@usableFromInline
internal enum CombiningPhase {
    case running
    /// The completion is decided; the drainer delivers it once it is done with what is owed.
    case completing(Subscribers.Completion<any Error>)
    /// Completed or cancelled: nothing more happens.
    case over
}

/// What a zip's or combine-latest's drainer does next.
@usableFromInline
internal enum CombiningStep {
    /// Stop draining (or, for a caller that is not draining, nothing to deliver).
    case idle
    /// Stop draining and let go of the downstream: the stream was cancelled meanwhile.
    case release
    /// Deliver these values, one per upstream in order.
    case deliver([Any])
    /// Complete the downstream and let go of it.
    case complete(Subscribers.Completion<any Error>)
}

/// Calls to make outside the lock, then the next step.
@usableFromInline
internal struct CombiningOutcome {
    /// Upstreams to ask for ``demand``.
    @usableFromInline var request: [any Subscription] = []
    @usableFromInline var demand = Subscribers.Demand.none
    /// Upstreams to cancel.
    @usableFromInline var cancel: [any Subscription] = []
    @usableFromInline var step = CombiningStep.idle

    @inlinable
    init(step: CombiningStep = .idle) {
        self.step = step
    }
}
