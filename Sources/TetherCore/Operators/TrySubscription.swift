/// The subscription behind ``Publishers/TryMap``, ``Publishers/TryFilter``,
/// ``Publishers/TryCompactMap``, ``Publishers/TryScan``,
/// ``Publishers/Encode`` and ``Publishers/Decode``: one state machine for every operator whose
/// closure may throw.
///
/// Each operator supplies a `step` that turns an upstream value into an output, or into `nil` to
/// skip it (the skip is compensated with a demand of one). When the step throws, the relay
/// cancels the upstream and fails the downstream with the error. What comes after the end (a
/// throw, a completion or a cancel) is the operator's ``AfterEnd`` to say: ignored, or (for
/// `tryMap` and `tryScan`, as in Combine) values still stepped and delivered, with completions
/// ignored. The downstream and the step are held for the relay's whole life, as Combine holds
/// them. A signal before the upstream's subscription is handled as the operator's
/// ``BeforeSubscription`` says (a throw there fails the downstream, with no upstream to cancel).
///
/// Built on the subscription kernel, ``UpstreamLink``: who ends the stream (an upstream
/// completion, a throw, or the downstream's `cancel` from any thread) is decided by its status.
/// The downstream and the step are touched only on the upstream's serial signal path and never
/// released, so delivering a value takes no lock; the hand-off only says, with a load, whether
/// the stream has stopped.
@usableFromInline
internal final class TrySubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
where Downstream.Failure == any Error {
    @usableFromInline
    internal typealias Failure = UpstreamFailure

    @usableFromInline
    internal typealias Step = (Input) throws -> Downstream.Input?

    @usableFromInline
    internal let link = UpstreamLink()

    /// Held for the relay's whole life, as Combine holds it: a downstream that keeps its
    /// subscription after the end keeps the relay, and so itself, alive until it lets go.
    @usableFromInline
    internal let downstream: Downstream

    /// Kept for the relay's life, as Combine keeps it (CombineX's suite records `tryCompactMap`
    /// keeping its closure after a completion and after a cancel); called on the serial path only.
    @usableFromInline
    internal let step: Step

    @usableFromInline
    internal let name: StaticString

    @usableFromInline
    internal let beforeSubscription: BeforeSubscription

    @usableFromInline
    internal let afterEnd: AfterEnd

    @usableFromInline
    internal let mirror: RelayMirror

    @inlinable
    internal init(
        name: StaticString, downstream: Downstream, beforeSubscription: BeforeSubscription,
        afterEnd: AfterEnd = .ignore, mirror: RelayMirror = .empty, step: @escaping Step
    ) {
        self.name = name
        self.beforeSubscription = beforeSubscription
        self.afterEnd = afterEnd
        self.mirror = mirror
        self.downstream = downstream
        self.step = step
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        guard link.accept(subscription) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
        _ = link.handOff.leave()
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        // The step is kept for the relay's life, so a value needs no hand-off: only the serial
        // path touches it. An operator that ignores a value after the end asks, with a load,
        // whether the stream runs.
        if afterEnd.ignoresValues, !admits() { return .none }
        let stepped: Downstream.Input?
        do {
            stepped = try step(input)
        } catch {
            fail(error)
            return .none
        }
        guard let output = stepped else { return .max(1) }
        return downstream.receive(output)
    }

    /// Whether a value may go through, for an operator that ignores one after the end; one before
    /// the subscription is as the operator's ``BeforeSubscription`` says.
    @inlinable
    internal func admits() -> Bool {
        switch beforeSubscription {
        case .trap: link.handOff.admitsWithoutEntering(name)
        case .ignore: link.handOff.admitsWithoutEntering()
        case .forwardValues, .forwardAll: !link.handOff.hasStopped()
        }
    }

    /// The step threw: cancel the upstream, then fail the downstream, unless the stream ended
    /// first (and the operator does not fail again after the end).
    @inlinable
    internal func fail(_ error: any Error) {
        let previous = link.end(evenBeforeSubscription: true)
        link.handOff.stopFromSerialPath()
        switch previous {
        case .subscribed(let upstream):
            upstream.cancel()
            downstream.receive(completion: .failure(error))
        case .awaitingSubscription:
            // Only a forwarding relay runs its step before the subscription.
            downstream.receive(completion: .failure(error))
        case .terminal:
            if case .deliverAndFailAgain = afterEnd {
                downstream.receive(completion: .failure(error))
            }
        }
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let forwardsEarly = if case .forwardAll = beforeSubscription { true } else { false }
        switch link.end(evenBeforeSubscription: forwardsEarly) {
        case .awaitingSubscription where !forwardsEarly:
            if case .trap = beforeSubscription {
                preconditionFailure(
                    "A publisher must send the subscription before its completion: \(name) received the completion first"
                )
            }
            return
        case .awaitingSubscription, .subscribed:
            link.handOff.stopFromSerialPath()
            downstream.receive(completion: completion.eraseError())
        case .terminal:
            return
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        link.forward(demand, beforeSubscription: beforeSubscription, name: name)
    }

    @inlinable
    internal func cancel() {
        let endsEarly = if case .trap = beforeSubscription { true } else { false }
        // Nothing to release: the hand-off only turns values away once it has stopped.
        guard let upstream = link.cancel(evenBeforeSubscription: endsEarly) else { return }
        upstream.cancel()
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    @usableFromInline
    internal var customMirror: Mirror {
        switch mirror {
        case .empty:
            return Mirror(self, children: [:])
        case .downstream:
            return Mirror(self, children: ["downstream": downstream])
        case .coder:
            let link = link.current
            let upstream = link.subscription
            let finished = if case .terminal = link { true } else { false }
            return Mirror(
                self,
                children: ["downstream": downstream, "finished": finished, "upstreamSubscription": upstream as Any])
        case .downstreamAnd(let children):
            return Mirror(self, children: [("downstream", downstream)] + children(link.current))
        }
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
