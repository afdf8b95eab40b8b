/// The state machine behind ``Publishers/PrefixUntilOutput``: every method runs under the
/// subscription's lock, calls nothing, and returns what the caller must do once it is released.
///
/// It follows Combine as OpenCombine's suite records it: the trigger publisher is asked for one
/// value, and its first value cancels the upstream and finishes the downstream (whether or not
/// the downstream has had its subscription yet) without cancelling the trigger; the trigger
/// completing changes nothing. An upstream subscription that arrives after the trigger fired is
/// cancelled. A completion before the upstream's subscription ends the stream without reaching
/// the downstream.
@usableFromInline
internal struct PrefixUntilOutputState {
    @usableFromInline var upstream = UpstreamStatus.awaitingSubscription
    @usableFromInline var trigger = UpstreamStatus.awaitingSubscription

    @inlinable
    init() {}

    /// The upstream's subscription arrived: `true` when it goes downstream, `false` when it
    /// must be cancelled instead.
    @inlinable
    mutating func attachUpstream(_ subscription: any Subscription) -> Bool {
        upstream.attach(subscription)
    }

    /// An upstream value: `true` when it goes downstream.
    @inlinable
    func passes() -> Bool {
        upstream.subscription != nil
    }

    /// The upstream completed: the trigger to cancel, and whether the completion goes
    /// downstream.
    @inlinable
    mutating func upstreamCompleted() -> (trigger: (any Subscription)?, delivers: Bool) {
        defer {
            upstream = .terminal
            trigger = .terminal
        }
        return (trigger.subscription, upstream.subscription != nil)
    }

    /// The downstream asked for more: the upstream to pass it on to.
    @inlinable
    func request() -> (any Subscription)? {
        upstream.subscription
    }

    /// The subscriptions to cancel, upstream first.
    @inlinable
    mutating func cancel() -> (upstream: (any Subscription)?, trigger: (any Subscription)?) {
        defer {
            upstream = .terminal
            trigger = .terminal
        }
        return (upstream.subscription, trigger.subscription)
    }

    /// The trigger's subscription arrived: `false` when it must be cancelled instead.
    @inlinable
    mutating func attachTrigger(_ subscription: any Subscription) -> Bool {
        trigger.attach(subscription)
    }

    /// The trigger sent a value: `nil` when it is ignored; otherwise the upstream to cancel, if
    /// subscribed, before the downstream finishes.
    @inlinable
    mutating func triggerFired() -> (any Subscription)?? {
        guard trigger.subscription != nil else { return nil }
        defer {
            upstream = .terminal
            trigger = .terminal
        }
        return .some(upstream.subscription)
    }

    @inlinable
    mutating func triggerCompleted() {
        trigger = .terminal
    }
}
