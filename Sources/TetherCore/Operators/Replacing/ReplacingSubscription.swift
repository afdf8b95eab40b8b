import Synchronization

/// The subscription behind ``Publishers/ReplaceEmpty`` and ``Publishers/ReplaceError``: it
/// relays values and demand unchanged, and at the upstream's completion either forwards a
/// completion or substitutes `output` followed by `.finished`.
///
/// The substitute is a value, so it needs demand: it goes out at once if the downstream has
/// demand outstanding, and otherwise waits for the next request. To know that, the relay counts
/// the demand requested minus the values delivered plus the demand those deliveries returned,
/// in its ``ReplacingState`` beside the upstream's status.
/// As in Combine, the relay holds its downstream for its whole life (OpenCombine's suite records
/// Combine keeping the subscriber after a cancel and after a failure); the hand-off only stops
/// deliveries. `replaceError` traps on a value that comes with no demand outstanding, as in
/// Combine; `replaceEmpty` asks its upstream for `.unlimited` once the downstream has its
/// subscription, as Combine's does.
///
/// As in Combine, a value (answered with `.none`), a completion, a request or a `cancel` that
/// comes before the upstream's subscription is ignored.
///
/// `@unchecked Sendable`: its state and cancel flag are under a lock or atomic; `sawValue`
/// is read and written on the upstream's serial signal path only; the rest is immutable.
@usableFromInline
internal final class ReplacingSubscription<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    @usableFromInline
    internal typealias Input = Downstream.Input

    @usableFromInline
    internal typealias Failure = UpstreamFailure

    /// What the relay does at the upstream's completion.
    @usableFromInline
    internal enum Ending {
        /// Publish `output`, then `.finished`.
        case substitute
        /// Pass this completion on.
        case forward(Subscribers.Completion<Downstream.Failure>)
    }

    /// Decides the ending from the upstream's completion and whether any value went through.
    @usableFromInline
    internal typealias Decide = (Subscribers.Completion<UpstreamFailure>, _ sawValue: Bool) -> Ending

    @usableFromInline let state = Locked(ReplacingState())
    @usableFromInline let handOff = ReleaseHandOff()
    /// Set by `cancel`; read between the substitute and `.finished`, so a downstream that
    /// cancels from inside `receive(_:)` gets nothing after its `cancel()` returns.
    @usableFromInline let cancelled = Atomic<Bool>(false)
    /// Set under the lock once the demand outstanding is `.unlimited`, which it then stays (a
    /// value takes nothing from it, and a request or a returned demand adds nothing): from then
    /// on a value needs no count, and takes no lock.
    @usableFromInline let unlimited = Atomic<Bool>(false)
    @usableFromInline let downstream: Downstream
    /// Serial path only.
    @usableFromInline @exclusivity(unchecked) var sawValue = false
    @usableFromInline let output: Input
    @usableFromInline let decide: Decide
    @usableFromInline let name: StaticString
    /// `replaceError`: a value with no demand outstanding traps.
    @usableFromInline let trapsWithoutDemand: Bool
    /// `replaceEmpty`: once the downstream has its subscription, the upstream is asked for
    /// `.unlimited`, whatever the downstream requests, as in Combine.
    @usableFromInline let requestsUnlimited: Bool

    @inlinable
    internal init(
        name: StaticString, downstream: Downstream, output: Input, trapsWithoutDemand: Bool = false,
        requestsUnlimited: Bool = false, decide: @escaping Decide
    ) {
        self.name = name
        self.trapsWithoutDemand = trapsWithoutDemand
        self.requestsUnlimited = requestsUnlimited
        self.downstream = downstream
        self.output = output
        self.decide = decide
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        guard state.withLock({ $0.attach(subscription) }) else {
            subscription.cancel()
            return
        }
        handOff.open()
        downstream.receive(subscription: self)
        _ = handOff.leave()
        // As Combine's does, even when the downstream cancelled from inside `receive`.
        if requestsUnlimited { subscription.request(.unlimited) }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        // The downstream is held for good, so there is nothing to hand over: a load turns away a
        // value before the subscription or after the end, with no count of deliveries.
        guard handOff.admitsWithoutEntering() else { return .none }
        sawValue = true
        let counted = !unlimited.load(ordering: .relaxed)
        if counted {
            state.withLock { $0.value(trapsWithoutDemand: trapsWithoutDemand, name: name) }
        }
        let more = downstream.receive(input)
        if counted, more > 0 {
            state.withLock { $0.returned(more) }
        }
        return handOff.hasStopped() ? .none : more
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        // `decide` only reads its arguments, so it is asked before the lock is taken.
        let ending = decide(completion, sawValue)
        let substituting = if case .substitute = ending { true } else { false }
        // One decision under the lock with the demand, so a request meanwhile cannot be missed.
        let action = state.withLock { $0.complete(substituting: substituting) }
        if case .nothing = action { return }
        handOff.stopFromSerialPath()
        guard case .end = action else { return }
        switch ending {
        case .substitute:
            substitute()
        case .forward(let completion):
            downstream.receive(completion: completion)
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        let action = state.withLock { state in
            let action = state.request(demand)
            if state.outstanding == .unlimited { unlimited.store(true, ordering: .relaxed) }
            return action
        }
        switch action {
        case .nothing:
            return
        case .forward(let upstream):
            upstream.request(demand)
        case .substitute:
            substitute()
        }
    }

    /// Sends `output`, then `.finished` unless the downstream cancelled meanwhile.
    @inlinable
    internal func substitute() {
        _ = downstream.receive(output)
        if cancelled.load(ordering: .acquiring) { return }
        downstream.receive(completion: .finished)
    }

    @inlinable
    internal func cancel() {
        let action = state.withLock { state -> ReplacingState.Cancel in
            let action = state.cancel()
            if case .end = action { cancelled.store(true, ordering: .releasing) }
            return action
        }
        guard case .end(let upstream?) = action else { return }
        _ = handOff.stopFromOutside()
        upstream.cancel()
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    /// No children: the downstream belongs to the serial path.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
