import TetherCore

/// The state machine behind ``Publishers/Materialize``: every method runs under the
/// subscription's lock, calls nothing, and returns what the caller must do once it is released.
///
/// It counts the downstream's demand, so that the upstream's completion, which becomes one more
/// value, goes out only when there is demand for it; until then it waits here.
///
/// Generic only in what it holds: the downstream, and the upstream's completion.
@usableFromInline
internal struct MaterializeState<Downstream: Subscriber, Failure: Error> {
    /// What the upstream's completion or a request leads to.
    @usableFromInline
    internal enum Action {
        case none
        /// Pass the request on to the upstream's subscription.
        case request(any Subscription)
        /// Send the completion to the downstream as an event, then finish it.
        case complete(Subscribers.Completion<Failure>, Downstream)
    }

    /// `nil` once the completion event is out, or cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = UpstreamStatus.awaitingSubscription
    /// The downstream's outstanding demand.
    @usableFromInline var demand = Subscribers.Demand.none
    /// The upstream's completion, waiting for demand.
    @usableFromInline var completion: Subscribers.Completion<Failure>?

    @inlinable
    init(downstream: Downstream) { self.downstream = downstream }

    /// The upstream's subscription arrived: the downstream to hand the subscription to, or `nil`
    /// when it must be cancelled instead (a second one, or one after the stream ended).
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Downstream? {
        guard case .awaitingSubscription = upstream, let downstream else { return nil }
        upstream = .subscribed(subscription)
        return downstream
    }

    /// An upstream value: the downstream to deliver its event to, or `nil` when the stream has
    /// ended. ``delivered(_:)`` must follow the delivery.
    @inlinable
    mutating func upstreamValue() -> Downstream? {
        guard completion == nil, let downstream else { return nil }
        // An upstream that sends beyond demand breaks its contract; the count stays sane.
        if demand > 0 { demand -= 1 }
        return downstream
    }

    /// A value's event was delivered and the downstream asked for `more`, which is counted (and
    /// returned to the upstream by the caller). Returns nothing: the count is all that changes.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) {
        demand += more
    }

    /// The upstream completed: `.complete` when there is demand for the completion's event,
    /// `.none` when it waits for a request or the stream has already ended.
    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Action {
        guard self.completion == nil, let downstream else { return .none }
        upstream = .terminal
        guard demand > 0 else {
            self.completion = completion
            return .none
        }
        self.downstream = nil
        return .complete(completion, downstream)
    }

    /// The downstream asked for `more`: `.complete` when a completion was waiting for it,
    /// `.request` to pass it on to the upstream, or `.none`.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Action {
        guard let downstream else { return .none }
        if let completion {
            self.downstream = nil
            self.completion = nil
            return .complete(completion, downstream)
        }
        demand += more
        guard let subscription = upstream.subscription else { return .none }
        return .request(subscription)
    }

    /// The downstream cancelled: the upstream's subscription to cancel, and the subscriber to let
    /// go of after it.
    @inlinable
    mutating func cancel() -> (upstream: (any Subscription)?, released: Downstream?) {
        defer {
            downstream = nil
            completion = nil
        }
        return (UpstreamStatus.end(&upstream).takeSubscription(), downstream)
    }
}
