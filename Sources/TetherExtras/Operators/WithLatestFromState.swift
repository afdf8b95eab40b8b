import TetherCore

/// The state machine behind ``Publishers/WithLatestFrom``: every method runs under the
/// subscription's lock, calls nothing, and returns what the caller must do once it is released.
///
/// The upstream's values and completion are serial by contract; `other`'s failure can arrive on
/// another thread while a value is being delivered, so it then waits in `pendingFailure` and
/// ends the stream right after that delivery. `other` is kept as a plain optional: its finish
/// lets it go and keeps its latest value, without closing the door to another subscription.
///
/// Generic only in what it holds: the downstream, and `other`'s latest value.
@usableFromInline
internal struct WithLatestFromState<Downstream: Subscriber, Latest> {
    @usableFromInline typealias Failure = Downstream.Failure

    /// How the stream ends: the side is `other`'s subscription.
    @usableFromInline typealias Ending = SideEnding<Downstream>

    /// What an upstream value leads to.
    @usableFromInline
    internal enum Take {
        /// The stream has ended: nothing, and no demand back.
        case ignore
        /// `other` has not produced a value yet: the value is dropped and the upstream is asked
        /// for one more in its place.
        case replace
        /// Combine the value with `latest` and deliver the result to the downstream, then call
        /// ``delivered()``.
        case deliver(Downstream, Latest)
    }

    /// `nil` once finished, failed or cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = UpstreamStatus.awaitingSubscription
    @usableFromInline var other: (any Subscription)?
    @usableFromInline var latest: Latest?
    /// Asked for before the upstream's subscription arrived.
    @usableFromInline var pendingDemand = Subscribers.Demand.none
    /// Upstream values being delivered (more than one only if an upstream recurses).
    @usableFromInline var delivering = 0
    @usableFromInline var pendingFailure: Failure?

    @inlinable
    init(downstream: Downstream) { self.downstream = downstream }

    /// The upstream's subscription arrived: the demand asked for before it, to pass on, or
    /// `nil` when it must be cancelled instead.
    @inlinable
    mutating func upstreamSubscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
        guard downstream != nil, case .awaitingSubscription = upstream else { return nil }
        upstream = .subscribed(subscription)
        defer { pendingDemand = .none }
        return pendingDemand
    }

    /// An upstream value: whether it is delivered, with what, or dropped.
    @inlinable
    mutating func upstreamValue() -> Take {
        guard let downstream else { return .ignore }
        guard let latest else { return .replace }
        delivering += 1
        return .deliver(downstream, latest)
    }

    /// An upstream value was delivered: how the stream ends, when `other`'s failure was waiting
    /// for this delivery, or `nil`.
    @inlinable
    mutating func delivered() -> Ending? {
        guard delivering > 0 else { preconditionFailure("WithLatestFrom was told of a delivery it did not start") }
        delivering -= 1
        guard delivering == 0, let failure = pendingFailure else { return nil }
        let (downstream, upstream, other) = terminate()
        return Ending(downstream, cancelling: upstream, other, with: .failure(failure))
    }

    /// The upstream completed: how the stream ends (`other` cancelled, the completion passed
    /// on, to no one when it has already ended), and the upstream's subscription, to let go of
    /// outside the lock rather than cancel.
    @inlinable
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Failure>) -> (
        ending: Ending, finished: (any Subscription)?
    ) {
        let (downstream, upstream, other) = terminate()
        return (Ending(downstream, cancelling: nil, other, with: completion), upstream)
    }

    /// `other`'s subscription arrived: `true` when it is to be asked for `.unlimited`, `false`
    /// when it must be cancelled instead.
    @inlinable
    mutating func otherSubscribed(_ subscription: any Subscription) -> Bool {
        guard downstream != nil, other == nil else { return false }
        other = subscription
        return true
    }

    /// A value of `other`: kept as the latest, unless the stream has ended.
    @inlinable
    mutating func otherValue(_ value: Latest) {
        guard downstream != nil else { return }
        latest = value
    }

    /// `other` completed: how the stream ends (a failure, at once or after the delivery in
    /// flight), or `nil` when it goes on with the latest value it has.
    @inlinable
    mutating func otherCompleted(_ completion: Subscribers.Completion<Failure>) -> Ending? {
        guard case .failure(let failure) = completion else {
            other = nil
            return nil
        }
        guard downstream != nil, pendingFailure == nil else { return nil }
        guard delivering == 0 else {
            pendingFailure = failure
            return nil
        }
        let (downstream, upstream, _) = terminate()
        return Ending(downstream, cancelling: upstream, nil, with: completion)
    }

    /// The downstream asked for `more`: the upstream's subscription to pass it to, or `nil`
    /// when it is counted until that subscription arrives (or the stream has ended).
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        guard downstream != nil else { return nil }
        switch upstream {
        case .awaitingSubscription:
            pendingDemand += more
            return nil
        case .subscribed(let subscription):
            return subscription
        case .terminal:
            preconditionFailure("WithLatestFrom's upstream ended while its downstream was still held")
        }
    }

    /// The downstream cancelled: the subscriber to let go of, and the subscriptions to cancel.
    @inlinable
    mutating func cancel() -> (released: Downstream?, upstream: (any Subscription)?, other: (any Subscription)?) {
        terminate()
    }

    /// Ends the stream: everything it held, for the caller to cancel, complete or let go of
    /// outside the lock; the latest value is let go here.
    @inlinable
    mutating func terminate() -> (Downstream?, (any Subscription)?, (any Subscription)?) {
        defer {
            downstream = nil
            other = nil
            latest = nil
            pendingFailure = nil
        }
        return (downstream, UpstreamStatus.end(&upstream).takeSubscription(), other)
    }
}
