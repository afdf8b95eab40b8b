/// The subscription behind ``Publishers/Catch`` and ``Publishers/TryCatch``: one downstream
/// subscription over the upstream and, once it fails, the publisher the handler returns.
///
/// It follows Combine's accounting. Until the upstream fails, the relay counts the demand the
/// downstream asked for and subtracts each value, so the replacement is asked for what the
/// upstream left unmet; a value with none outstanding traps. Requests made while the
/// replacement is being subscribed are added to it. Once the replacement has subscribed,
/// requests go straight to it and its values are not counted.
///
/// As in Combine, the relay holds its downstream for its whole life: a value arriving after a
/// cancel or a completion still goes downstream (the sources are expected to stop), while a
/// completion goes downstream once only. A cancel cancels whichever source is subscribed; one
/// made while the replacement is being subscribed is ignored. A second failure after the
/// handler ran traps. Before the upstream's subscription, a completion is ignored.
///
/// `@unchecked Sendable`: its state lives in `state`, under its lock; the downstream, the recovery
/// and the name are immutable, and the downstream is called only on the signal paths the state
/// names, one at a time.
@usableFromInline
internal final class CatchSubscription<Downstream: Subscriber, Recovery>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal enum Link {
        case awaitingUpstream
        case upstream(any Subscription)
        /// The upstream failed and the replacement has not handed over its subscription yet.
        case awaitingReplacement
        case replacement(any Subscription)
        case terminal
    }

    @usableFromInline
    internal struct State {
        @usableFromInline var link = Link.awaitingUpstream
        /// The downstream demand the upstream has not met yet.
        @usableFromInline var demand = Subscribers.Demand.none

        @inlinable
        init() {}
    }

    @usableFromInline
    internal let state = Locked(State())

    @usableFromInline
    internal let downstream: Downstream

    @usableFromInline
    internal let recovery: Recovery

    @usableFromInline
    internal let name: StaticString

    @inlinable
    internal init(name: StaticString, downstream: Downstream, recovery: Recovery) {
        self.name = name
        self.downstream = downstream
        self.recovery = recovery
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    // MARK: Upstream

    @inlinable
    internal func attachUpstream(_ subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard case .awaitingUpstream = state.link else { return false }
            state.link = .upstream(subscription)
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    internal func relayFromUpstream(_ input: Downstream.Input) -> Subscribers.Demand {
        state.withLock { state in
            precondition(
                state.demand > 0, "A publisher must not send a value without demand: \(name) had none outstanding")
            state.demand -= 1
        }
        let more = downstream.receive(input)
        if more > 0 {
            state.withLock { $0.demand += more }
        }
        return more
    }

    @inlinable
    internal func upstreamFinished() {
        let ends = state.withLock { state -> Bool in
            guard case .upstream = state.link else { return false }
            state.link = .terminal
            return true
        }
        if ends {
            downstream.receive(completion: .finished)
        }
    }

    /// The upstream failed: the recovery to run, or `nil` when the stream is over (or never
    /// began). Traps when the handler already ran, as in Combine.
    @inlinable
    internal func upstreamFailed() -> Recovery? {
        let link = state.withLock { state -> Link in
            let link = state.link
            if case .upstream = link { state.link = .awaitingReplacement }
            return link
        }
        switch link {
        case .upstream:
            return recovery
        case .awaitingUpstream, .terminal:
            return nil
        case .awaitingReplacement, .replacement:
            preconditionFailure("A publisher must not complete twice: \(name)'s upstream failed again")
        }
    }

    /// `tryCatch`'s handler threw: the stream ends with `completion`.
    @inlinable
    internal func recoveryFailed(_ completion: Subscribers.Completion<Downstream.Failure>) {
        state.withLock { $0.link = .terminal }
        downstream.receive(completion: completion)
    }

    // MARK: Replacement

    @inlinable
    internal func attachReplacement(_ subscription: any Subscription) {
        let initial = state.withLock { state -> Subscribers.Demand? in
            guard case .awaitingReplacement = state.link else { return nil }
            state.link = .replacement(subscription)
            return state.demand
        }
        guard let initial else {
            subscription.cancel()
            return
        }
        if initial > 0 {
            subscription.request(initial)
        }
    }

    @inlinable
    internal func relayFromReplacement(_ input: Downstream.Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    @inlinable
    internal func replacementCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) {
        let ends = state.withLock { state -> Bool in
            guard case .replacement = state.link else { return false }
            state.link = .terminal
            return true
        }
        if ends {
            downstream.receive(completion: completion)
        }
    }

    // MARK: Downstream

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        let source = state.withLock { state -> (any Subscription)? in
            switch state.link {
            case .upstream(let source):
                state.demand += demand
                return source
            case .awaitingReplacement:
                state.demand += demand
                return nil
            case .replacement(let source):
                return source
            case .awaitingUpstream, .terminal:
                return nil
            }
        }
        source?.request(demand)
    }

    @inlinable
    internal func cancel() {
        let source = state.withLock { state -> (any Subscription)? in
            switch state.link {
            case .upstream(let source), .replacement(let source):
                state.link = .terminal
                return source
            case .awaitingUpstream, .awaitingReplacement, .terminal:
                return nil
            }
        }
        source?.cancel()
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    @usableFromInline
    internal var customMirror: Mirror {
        let demand = state.withLock { $0.demand }
        return Mirror(self, children: ["downstream": downstream, "demand": demand])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
