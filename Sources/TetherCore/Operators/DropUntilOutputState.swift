/// The state machine behind ``Publishers/DropUntilOutput``: every method runs under the
/// subscription's lock, calls nothing, and returns what the caller must do once it is released.
///
/// It keeps Combine's accounting, as OpenCombine's suite records it. The downstream's requests
/// are counted and passed to the upstream (or, before its subscription, handed over when it
/// arrives); a value dropped before the trigger uses one, and one dropped with none outstanding
/// traps. Once triggered, values go downstream uncounted. The trigger publisher is asked for
/// one value; its subscriber takes a new subscription once the previous one has produced its
/// value. `other` completing before it produced a value cancels the upstream and completes the
/// downstream, but ends nothing here: as in Combine, a later completion from the upstream goes
/// downstream too, and so does a value after a later trigger.
@usableFromInline
internal struct DropUntilOutputState {
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var other: (any Subscription)?
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var triggered = false
    /// Set by `cancel` and by the upstream's completion.
    @usableFromInline var cancelled = false

    @inlinable
    init() {}

    /// The upstream's subscription arrived: the demand to ask it for, or `nil` when it must be
    /// cancelled instead.
    @inlinable
    mutating func attachUpstream(_ subscription: any Subscription) -> Subscribers.Demand? {
        guard upstream == nil, !cancelled else { return nil }
        upstream = subscription
        return demand
    }

    /// An upstream value: `true` when it goes downstream. Traps when a value to drop finds no
    /// demand outstanding.
    @inlinable
    mutating func upstreamValue() -> Bool {
        if triggered, !cancelled { return true }
        precondition(
            demand > 0, "A publisher must not send a value without demand: DropUntilOutput had none outstanding")
        demand -= 1
        return false
    }

    /// The upstream completed: `true` when the completion goes downstream.
    @inlinable
    mutating func upstreamCompleted() -> Bool {
        guard !cancelled else { return false }
        cancelled = true
        return true
    }

    /// The trigger's subscription arrived: `false` when it must be cancelled instead.
    @inlinable
    mutating func attachOther(_ subscription: any Subscription) -> Bool {
        guard other == nil else { return false }
        other = subscription
        return true
    }

    @inlinable
    mutating func otherValue() {
        triggered = true
        other = nil
    }

    /// The trigger completed: `nil` when it had produced a value (nothing to do); otherwise the
    /// upstream to cancel, if subscribed, before the completion goes downstream.
    @inlinable
    mutating func otherCompleted() -> (any Subscription)?? {
        if triggered {
            other = nil
            return nil
        }
        defer { upstream = nil }
        return .some(upstream)
    }

    /// The downstream asked for more: the upstream to pass it on to.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> (any Subscription)? {
        demand += more
        return upstream
    }

    /// The subscriptions to cancel, upstream first.
    @inlinable
    mutating func cancel() -> (upstream: (any Subscription)?, other: (any Subscription)?) {
        cancelled = true
        defer {
            upstream = nil
            other = nil
        }
        return (upstream, other)
    }
}
