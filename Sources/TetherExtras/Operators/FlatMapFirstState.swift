import TetherCore

/// The state machine behind ``Publishers/FlatMapFirst``: every method runs under the
/// subscription's lock, calls nothing, and returns what the caller must do once it is released.
///
/// Only the active inner publisher delivers values, serially by contract; an upstream failure
/// that arrives while one is being delivered (from another thread, or recursively from the
/// downstream) waits in `pendingFailure` and ends the stream right after that delivery. The
/// upstream is kept as a plain optional rather than an ``UpstreamStatus``: its finish lets it
/// go without closing the door, so a subscription arriving after it is taken as a first one.
///
/// Generic only in what it holds: the downstream, and the transform (handed out, never called).
@usableFromInline
internal struct FlatMapFirstState<Downstream: Subscriber, Transform> {
    @usableFromInline typealias Failure = Downstream.Failure

    /// How the stream ends: the side is the inner publisher's subscription.
    @usableFromInline typealias Ending = SideEnding<Downstream>

    /// `nil` once finished, failed or cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream: (any Subscription)?
    /// The active inner publisher's subscription, once it handed it over.
    @usableFromInline var inner: (any Subscription)?
    /// An inner publisher was made and has not finished: upstream values are dropped.
    @usableFromInline var innerActive = false
    @usableFromInline var upstreamFinished = false
    /// What the downstream asked for and has not received.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Inner values being delivered (more than one only if an inner publisher recurses).
    @usableFromInline var delivering = 0
    @usableFromInline var pendingFailure: Failure?
    /// Not let go when the stream ends: it goes with the subscription.
    @usableFromInline var transform: Transform?

    @inlinable
    init(downstream: Downstream, transform: Transform) {
        self.downstream = downstream
        self.transform = transform
    }

    /// The upstream's subscription arrived: the downstream to hand the subscription to (the
    /// upstream is then asked for `.unlimited`), or `nil` when it must be cancelled instead.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Downstream? {
        guard upstream == nil, let downstream else { return nil }
        upstream = subscription
        return downstream
    }

    /// An upstream value: the transform to make the inner publisher with, or `nil` when the
    /// value is dropped (an inner is active, or the stream has ended).
    @inlinable
    mutating func upstreamValue() -> Transform? {
        guard downstream != nil, !innerActive else { return nil }
        innerActive = true
        return transform
    }

    /// The upstream completed: how the stream ends, or `nil` when it goes on (an inner is
    /// active, or a failure waits for the delivery in flight) or has already ended.
    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> Ending? {
        guard downstream != nil else { return nil }
        switch completion {
        case .finished:
            upstreamFinished = true
            upstream = nil
            guard !innerActive else { return nil }
            // An inner subscription held without an active inner is let go, not cancelled.
            let (downstream, _, _) = terminate()
            return Ending(downstream, cancelling: nil, nil, with: .finished)
        case .failure(let failure):
            guard pendingFailure == nil else { return nil }
            upstream = nil
            guard delivering == 0 else {
                pendingFailure = failure
                return nil
            }
            let (downstream, _, inner) = terminate()
            return Ending(downstream, cancelling: nil, inner, with: completion)
        }
    }

    /// The inner publisher's subscription arrived: the downstream's unmet demand to ask it for,
    /// or `nil` when it must be cancelled instead.
    @inlinable
    mutating func innerSubscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
        guard downstream != nil, inner == nil else { return nil }
        inner = subscription
        return demand
    }

    /// An inner value: the downstream to deliver it to, or `nil` when the stream has ended.
    /// ``delivered(_:)`` must follow the delivery.
    @inlinable
    mutating func innerValue() -> Downstream? {
        guard let downstream else { return nil }
        // An inner publisher that sends beyond demand breaks its contract; the count stays sane.
        if demand > 0 { demand -= 1 }
        delivering += 1
        return downstream
    }

    /// An inner value was delivered and the downstream asked for `more`: how the stream ends,
    /// when an upstream failure was waiting for this delivery, or `nil`.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Ending? {
        guard delivering > 0 else { preconditionFailure("FlatMapFirst was told of a delivery it did not start") }
        delivering -= 1
        if downstream != nil { demand += more }
        guard delivering == 0, let failure = pendingFailure else { return nil }
        let (downstream, upstream, inner) = terminate()
        return Ending(downstream, cancelling: upstream, inner, with: .failure(failure))
    }

    /// The inner publisher completed: how the stream ends (a failure, or a finish after the
    /// upstream's), or `nil` when the next upstream value may make another inner.
    @inlinable
    mutating func innerCompleted(_ completion: Subscribers.Completion<Failure>) -> Ending? {
        guard downstream != nil else { return nil }
        inner = nil
        innerActive = false
        if case .finished = completion, !upstreamFinished { return nil }
        let (downstream, upstream, _) = terminate()
        return Ending(downstream, cancelling: upstream, nil, with: completion)
    }

    /// The downstream asked for `more`: the inner subscription to pass it to, if there is one.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        guard downstream != nil else { return nil }
        demand += more
        return inner
    }

    /// The downstream cancelled: the subscriber to let go of, and the subscriptions to cancel.
    @inlinable
    mutating func cancel() -> (released: Downstream?, upstream: (any Subscription)?, inner: (any Subscription)?) {
        terminate()
    }

    /// Ends the stream: everything it held, for the caller to cancel, complete or let go of
    /// outside the lock.
    @inlinable
    mutating func terminate() -> (Downstream?, (any Subscription)?, (any Subscription)?) {
        defer {
            downstream = nil
            upstream = nil
            inner = nil
            pendingFailure = nil
        }
        return (downstream, upstream, inner)
    }
}
