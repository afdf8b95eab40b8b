/// The state machine behind one subscription to a ``Future``: every method runs under the
/// subscription's lock, calls nothing, and returns what the caller must do once it is released.
///
/// The subscription waits for two things, the outcome and (for a value) the downstream's first
/// request, in either order; whichever comes second hands over the subscriber and the outcome,
/// once, and the subscriber is let go with them.
///
/// Generic only in what it holds: the downstream, and the outcome of its type.
@usableFromInline
internal struct FutureState<Downstream: Subscriber> {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// What the outcome's arrival or a request leads to.
    @usableFromInline
    internal enum Action {
        /// Nothing yet: the other half is missing, or the outcome has gone out.
        case none
        /// Send the outcome to the downstream: a value and then `.finished`, or the failure.
        case deliver(Downstream, Result<Output, Failure>)
    }

    /// `nil` once the outcome went out or the subscription was cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var outcome: Result<Output, Failure>?
    @usableFromInline var demanded = false
    /// To withdraw from the future's waiting list on cancel, and for the mirror. Held strongly,
    /// as Combine's subscription holds its future: while the subscription waits for the outcome,
    /// it and the future hold each other, until the outcome is delivered or the subscription is
    /// cancelled. A weak reference cost about 780 instructions a subscription (the future's first
    /// weak reference makes it a side table, through which every later retain and release of
    /// the future then goes). As in Combine, it is let go after an outcome the future settled is
    /// delivered, and kept when a request delivers an outcome already there.
    @usableFromInline var future: Future<Output, Failure>?

    @inlinable
    init(downstream: Downstream, future: Future<Output, Failure>) {
        self.downstream = downstream
        self.future = future
    }

    /// Whether the subscriber has been let go of (delivered to or cancelled).
    @inlinable
    var isReleased: Bool { downstream == nil }

    /// The future settled with `outcome`: `.deliver` when the subscriber has asked (or it is a
    /// failure), then ``settledDelivered()``; `.none` when it waits for a request or is over.
    @inlinable
    mutating func settle(_ outcome: Result<Output, Failure>) -> Action {
        guard downstream != nil else { return .none }
        self.outcome = outcome
        return takeDeliverable()
    }

    /// The outcome the future settled went out: the future is let go of. Returns nothing.
    @inlinable
    mutating func settledDelivered() {
        future = nil
    }

    /// The subscriber asked for something: `.deliver` when the outcome is there, `.none`
    /// otherwise.
    @inlinable
    mutating func request() -> Action {
        demanded = true
        return takeDeliverable()
    }

    /// The subscriber cancelled: the subscriber to let go of, and the future to withdraw from.
    @inlinable
    mutating func cancel() -> (released: Downstream?, future: Future<Output, Failure>?) {
        defer {
            downstream = nil
            outcome = nil
            future = nil
        }
        return (downstream, future)
    }

    /// Takes the subscriber and what to send it, if everything needed is there.
    @inlinable
    internal mutating func takeDeliverable() -> Action {
        guard let downstream, let outcome else { return .none }
        if case .success = outcome, !demanded { return .none }
        self.downstream = nil
        self.outcome = nil
        return .deliver(downstream, outcome)
    }
}
