/// The subscription behind ``Publishers/PrefixUntilOutput`` and ``Publishers/DropUntilOutput``:
/// it relays the upstream while watching a second, trigger, publisher.
///
/// The relay asks the trigger for one value. When it arrives the relay cancels the trigger and
/// either finishes (prefix: the upstream is cancelled too) or starts passing values on (drop:
/// values before it are dropped, each replaced by a demand of one).
///
/// The trigger signals on its own thread, so the end of the stream may be decided while the
/// upstream is delivering a value. Under the `control` lock, `busy` marks a delivery in flight
/// (or the downstream still waiting for its subscription); a completion decided meanwhile is
/// left in `pending` for the busy side to deliver as it finishes. Whoever ends the stream while
/// nothing is busy delivers and releases the downstream itself. Downstream demand passes to the
/// upstream unchanged.
@usableFromInline
internal final class UntilOutputRelay<Input, Failure: Error, TriggerOutput, TriggerFailure: Error, Downstream: Subscriber>:
    Subscriber, Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Failure {
    /// What the trigger's first value does.
    @usableFromInline
    internal enum Mode: Sendable {
        /// Finish, cancelling the upstream (`prefix(untilOutputFrom:)`).
        case prefix
        /// Start republishing (`drop(untilOutputFrom:)`).
        case drop
    }

    @usableFromInline
    internal enum Link {
        case awaitingSubscription
        case subscribed(any Subscription)
        case terminal
    }

    @usableFromInline
    internal struct Control {
        @usableFromInline var upstream = Link.awaitingSubscription
        @usableFromInline var trigger: (any Subscription)?
        /// The trigger has fired (drop: values now pass).
        @usableFromInline var triggered = false
        /// A signal to the downstream is in flight, or it has not had its subscription yet.
        @usableFromInline var busy = true
        /// The stream has ended (completion decided, or cancelled).
        @usableFromInline var finished = false
        /// A completion decided while `busy`, for the busy side to deliver.
        @usableFromInline var pending: Subscribers.Completion<Failure>?

        @inlinable
        init() {}
    }

    /// How a value from the upstream may proceed.
    @usableFromInline
    internal enum Gate {
        case closed
        case dropping
        case passing
    }

    @usableFromInline
    internal let control = Locked(Control())

    /// Touched only by the side that holds `busy`, or that ends the stream while nobody does.
    @usableFromInline
    internal var downstream: Downstream?

    @usableFromInline
    internal let mode: Mode

    @usableFromInline
    internal let name: StaticString

    /// What a trigger failure does: a failure to send downstream, or `nil` to ignore it.
    @usableFromInline
    internal let triggerFailure: (TriggerFailure) -> Failure?

    @inlinable
    internal init(
        name: StaticString, mode: Mode, downstream: Downstream, triggerFailure: @escaping (TriggerFailure) -> Failure?
    ) {
        self.name = name
        self.mode = mode
        self.downstream = downstream
        self.triggerFailure = triggerFailure
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// The subscriber to attach to the trigger publisher.
    @inlinable
    internal var triggerInlet: TriggerInlet { TriggerInlet(relay: self) }

    // MARK: Upstream

    @inlinable
    internal func receive(subscription: any Subscription) {
        let (accepted, finished) = control.withLock { control -> (Bool, Bool) in
            guard case .awaitingSubscription = control.upstream else { return (false, false) }
            control.upstream = control.finished ? .terminal : .subscribed(subscription)
            return (true, control.finished)
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream?.receive(subscription: self)
        // The trigger may have ended the stream before the upstream subscribed.
        if finished { subscription.cancel() }
        leave()
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        let gate = control.withLock { control -> Gate in
            if case .awaitingSubscription = control.upstream {
                preconditionFailure("A publisher must send the subscription before any value: \(name) received a value first")
            }
            guard !control.finished else { return .closed }
            if mode == .drop, !control.triggered { return .dropping }
            control.busy = true
            return .passing
        }
        switch gate {
        case .closed: return .none
        case .dropping: return .max(1)
        case .passing: break
        }
        let demand = downstream?.receive(input) ?? .none
        return leave() ? .none : demand
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        end(completion, cancellingUpstream: false)
    }

    /// Finishes the delivery `busy` marked: delivers a completion decided meanwhile, and releases
    /// the downstream if the stream has ended.
    /// - Returns: `true` when the stream has ended.
    @usableFromInline
    @discardableResult
    internal func leave() -> Bool {
        let (pending, finished) = control.withLock {
            control -> (Subscribers.Completion<Failure>?, Bool) in
            control.busy = false
            defer { control.pending = nil }
            return (control.pending, control.finished)
        }
        guard finished else { return false }
        let released = downstream
        downstream = nil
        if let pending { released?.receive(completion: pending) }
        return true
    }

    /// Ends the stream from any thread, unless it has ended already.
    @usableFromInline
    internal func end(_ completion: Subscribers.Completion<Failure>, cancellingUpstream: Bool) {
        let decided = control.withLock {
            control -> (deliverNow: Bool, upstream: (any Subscription)?, trigger: (any Subscription)?)? in
            guard !control.finished else { return nil }
            control.finished = true
            let upstream: (any Subscription)?
            if case .subscribed(let subscription) = control.upstream { upstream = subscription } else { upstream = nil }
            if case .awaitingSubscription = control.upstream {} else { control.upstream = .terminal }
            defer { control.trigger = nil }
            if control.busy {
                control.pending = completion
                return (false, upstream, control.trigger)
            }
            return (true, upstream, control.trigger)
        }
        guard let decided else { return }
        decided.trigger?.cancel()
        if cancellingUpstream { decided.upstream?.cancel() }
        guard decided.deliverNow else { return }
        let released = downstream
        downstream = nil
        released?.receive(completion: completion)
    }

    // MARK: Downstream

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        let upstream = control.withLock { control -> (any Subscription)? in
            guard !control.finished, case .subscribed(let upstream) = control.upstream else { return nil }
            return upstream
        }
        upstream?.request(demand)
    }

    @inlinable
    internal func cancel() {
        let taken = control.withLock {
            control -> (release: Bool, upstream: (any Subscription)?, trigger: (any Subscription)?)? in
            guard !control.finished else { return nil }
            control.finished = true
            control.pending = nil
            let upstream: (any Subscription)?
            if case .subscribed(let subscription) = control.upstream { upstream = subscription } else { upstream = nil }
            control.upstream = .terminal
            defer { control.trigger = nil }
            return (!control.busy, upstream, control.trigger)
        }
        guard let taken else { return }
        if taken.release {
            downstream = nil
        }
        taken.trigger?.cancel()
        taken.upstream?.cancel()
    }

    // MARK: Trigger

    @usableFromInline
    internal func triggerReceive(subscription: any Subscription) {
        let accepted = control.withLock { control -> Bool in
            guard !control.finished, !control.triggered, control.trigger == nil else { return false }
            control.trigger = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.max(1))
    }

    @usableFromInline
    internal func triggerFired() {
        switch mode {
        case .prefix:
            end(.finished, cancellingUpstream: true)
        case .drop:
            let trigger = control.withLock { control -> (any Subscription)? in
                control.triggered = true
                defer { control.trigger = nil }
                return control.trigger
            }
            trigger?.cancel()
        }
    }

    @usableFromInline
    internal func triggerReceive(completion: Subscribers.Completion<TriggerFailure>) {
        if case .failure(let error) = completion, let failure = triggerFailure(error) {
            end(.failure(failure), cancellingUpstream: true)
            return
        }
        let released = control.withLock { control -> (any Subscription)? in
            defer { control.trigger = nil }
            return control.trigger
        }
        _ = released
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    /// No children: the downstream belongs to whoever is delivering and cannot be read here.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }

    /// The subscriber attached to the trigger publisher; it keeps the relay alive until the
    /// trigger lets go of it.
    @usableFromInline
    internal struct TriggerInlet: Subscriber, CustomStringConvertible {
        @usableFromInline let relay: UntilOutputRelay
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(relay: UntilOutputRelay) {
            self.relay = relay
        }

        @inlinable
        func receive(subscription: any Subscription) {
            relay.triggerReceive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: TriggerOutput) -> Subscribers.Demand {
            relay.triggerFired()
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<TriggerFailure>) {
            relay.triggerReceive(completion: completion)
        }

        @usableFromInline var description: String { "\(relay.name)" }
    }
}
