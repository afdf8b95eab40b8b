import Synchronization

/// The subscription behind ``Publishers/Catch`` and ``Publishers/TryCatch``: the upstream's
/// subscriber and one downstream subscription over the upstream and, once it fails, the
/// publisher the handler returns, which it subscribes through a ``Side``.
///
/// Which source is current and the demand the upstream left unmet live in a
/// ``SuccessionState`` under the lock. It follows Combine's accounting: until the upstream
/// fails, the downstream's requests are counted and each upstream value subtracted, so the
/// replacement is asked for what the upstream left unmet; an upstream value with none
/// outstanding traps. Requests made while the replacement is being subscribed are added to it.
/// Once the replacement has subscribed, requests go straight to it and its values are not
/// counted. The handler runs on the failing thread, outside the lock.
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
internal final class CatchSubscription<Downstream: Subscriber, Recovery: CatchRecovery>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Recovery.Replacement.Output, Downstream.Failure == Recovery.Failure {
    @usableFromInline internal typealias Input = Downstream.Input
    @usableFromInline internal typealias Failure = Recovery.UpstreamFailure

    @usableFromInline
    internal let state = Locked(SuccessionState())

    /// Set under the lock once the demand the upstream has unmet is `.unlimited`, which it then
    /// stays: from then on an upstream value needs no count, and takes no lock.
    @usableFromInline
    internal let unlimited = Atomic<Bool>(false)

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
    internal func receive(subscription: any Subscription) {
        guard state.withLock({ $0.attach(subscription, from: .first) }) != nil else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        let counted = !unlimited.load(ordering: .relaxed)
        if counted {
            let met = state.withLock { $0.meetOne() }
            precondition(met, "A publisher must not send a value without demand: \(name) had none outstanding")
        }
        let more = downstream.receive(input)
        if counted, more > 0 {
            state.withLock { $0.unmet += more }
        }
        return more
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Failure>) {
        guard case .failure(let error) = completion else {
            if state.withLock({ $0.end(.first, handingOver: false) }) {
                downstream.receive(completion: .finished)
            }
            return
        }
        let status = state.withLock { state -> SuccessionState.Link in
            let status = state.status
            _ = state.end(.first, handingOver: true)
            return status
        }
        switch status {
        case .first:
            break
        case .awaitingFirst, .over:
            return
        case .awaitingSecond, .second:
            preconditionFailure("A publisher must not complete twice: \(name)'s upstream failed again")
        }
        let replacement: Recovery.Replacement
        do throws(Recovery.Failure) {
            replacement = try recovery.replacement(for: error)
        } catch {
            state.withLock { $0.status = .over }
            downstream.receive(completion: .failure(error))
            return
        }
        replacement.subscribe(Side(self))
    }

    // MARK: Downstream

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        let source = state.withLock { state in
            let source = state.request(demand)
            if state.unmet == .unlimited { unlimited.store(true, ordering: .relaxed) }
            return source
        }
        source.request(demand)
    }

    @inlinable
    internal func cancel() {
        // Combine ignores a cancel while the replacement is being subscribed: the replacement
        // still takes over when it hands over its subscription.
        let source = state.withLock { state -> any Subscription in
            switch state.status {
            case .first, .second:
                return state.stop().1
            case .awaitingFirst, .awaitingSecond, .over:
                return UnattachedSubscription()
            }
        }
        source.cancel()
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: sideMirrorChildren(0)) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

/// The replacement's signals, through its ``Side``.
extension CatchSubscription: SideOwner {
    @usableFromInline internal typealias SideInput = Downstream.Input
    @usableFromInline internal typealias SideFailure = Recovery.Replacement.Failure

    @inlinable
    internal func sideReceive(_: Int, subscription: any Subscription) {
        guard let unmet = state.withLock({ $0.attach(subscription, from: .second) }) else {
            subscription.cancel()
            return
        }
        if unmet > 0 {
            subscription.request(unmet)
        }
    }

    @inlinable
    internal func sideReceive(_: Int, _ input: Downstream.Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    @inlinable
    internal func sideReceive(_: Int, completion: Subscribers.Completion<Recovery.Replacement.Failure>) {
        if state.withLock({ $0.end(.second, handingOver: false) }) {
            downstream.receive(completion: Recovery.downstreamCompletion(completion))
        }
    }

    @usableFromInline
    internal var sideDescription: String { description }

    /// The subscription's own children, as Combine's replacement subscriber shows them.
    @usableFromInline
    internal func sideMirrorChildren(_: Int) -> KeyValuePairs<String, Any> {
        let demand = state.withLock { $0.unmet }
        return ["downstream": downstream, "demand": demand]
    }
}
