/// What a ``VerdictSubscription`` does with one upstream value, as its operator's step decides.
///
/// Not generic, so deciding costs no metadata lookup on the per-element path.
@usableFromInline
package enum ValueVerdict {
    /// Deliver the value; the downstream's returned demand goes upstream.
    case pass
    /// Drop the value and ask the upstream for nothing.
    case skip
    /// Drop the value and ask the upstream for one more in its place.
    case skipAndReplace
    /// Deliver the value, then cancel the upstream and finish (`output(in:)` at its end).
    case passAndFinish
    /// Drop the value, cancel the upstream and finish (`prefix(while:)` on `false`).
    case finish
    /// Cancel the upstream and fail with the error a `try` step threw.
    case fail(any Error)
}

/// The subscription behind the operators that look at each value once and decide, with a
/// ``ValueVerdict``, whether to pass it, drop it, or end the stream: `prefix(while:)`,
/// `drop(while:)`, `removeDuplicates` and their `try` forms. Requests and returned demand pass
/// through unchanged.
///
/// Built on the subscription kernel, ``UpstreamLink``: who ends the stream (the upstream's
/// completion, a verdict, or the downstream's `cancel` from any thread) is decided by its status.
/// The downstream and the step belong to the upstream's serial signal path and are handed over
/// through its `handOff`, so a value takes no lock.
///
/// A signal before the subscription is handled as ``BeforeSubscription`` says, where the
/// forwarding cases act as `.ignore` (no operator built on it forwards such signals in Combine);
/// a completion or value after the end is ignored, and a second subscription is cancelled.
@usableFromInline
package final class VerdictSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
where Downstream.Input == Input {
    @usableFromInline
    package typealias Failure = UpstreamFailure

    @usableFromInline
    package typealias Step = (Input) -> ValueVerdict

    /// What the serial path needs: an object of its own, so that a value calls the step through
    /// a `let` of an object held unretained, which Swift calls without retaining the closure (a
    /// closure read from a `var` is retained and released around every call, two atomic
    /// operations a value).
    @usableFromInline
    package final class Owned {
        @usableFromInline package let step: Step

        @inlinable
        package init(step: @escaping Step) {
            self.step = step
        }
    }

    @usableFromInline
    package let link = UpstreamLink()

    /// Held for the relay's whole life, as Combine holds it: a downstream that keeps its
    /// subscription after the end keeps the relay, and so itself, alive until it lets go.
    @usableFromInline
    package let downstream: Downstream

    /// Read and written only on the serial path, or by the side the hand-off names; retained
    /// once here, released by ``release()`` (or by `deinit`, for a subscription that never ended).
    /// A value reaches it unretained: the hand-off keeps it until the delivery has left.
    @usableFromInline
    @exclusivity(unchecked)
    package var owned: Unmanaged<Owned>?

    @usableFromInline
    package let beforeSubscription: BeforeSubscription

    @usableFromInline
    package let name: StaticString

    /// What the mirror shows.
    @usableFromInline
    package let mirror: RelayMirror

    @usableFromInline
    package let mapFailure: (UpstreamFailure) -> Downstream.Failure

    @usableFromInline
    package let mapThrown: (any Error) -> Downstream.Failure

    /// - Parameters:
    ///   - name: The operator, for `description` and trap messages.
    ///   - downstream: The subscriber to relay to.
    ///   - beforeSubscription: What a signal before the upstream's subscription does.
    ///   - mirror: What the relay's mirror shows.
    ///   - mapFailure: Turns an upstream failure into the downstream's failure type.
    ///   - mapThrown: Turns an error a `try` step threw into the downstream's failure type.
    ///   - step: Decides what to do with each upstream value; runs on the serial path.
    @inlinable
    package init(
        name: StaticString, downstream: Downstream,
        beforeSubscription: BeforeSubscription = .ignore, mirror: RelayMirror = .empty,
        mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        mapThrown: @escaping (any Error) -> Downstream.Failure,
        step: @escaping Step
    ) {
        self.name = name
        self.mirror = mirror
        self.beforeSubscription = beforeSubscription
        self.mapFailure = mapFailure
        self.mapThrown = mapThrown
        self.downstream = downstream
        owned = .passRetained(Owned(step: step))
        Ledger.enter(self)
    }

    deinit {
        // Released in place: `release()`, generic over the kept object's type, ran here
        // unspecialised and looked that type up on every subscription's end.
        owned?.release()
        Ledger.leave(self)
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        guard link.accept(subscription) else {
            subscription.cancel()
            return
        }
        if owned != nil {
            downstream.receive(subscription: self)
        }
        if link.handOff.leave() {
            release()
        }
    }

    @inlinable
    package func receive(_ input: Input) -> Subscribers.Demand {
        let entered =
            if case .trap = beforeSubscription { link.handOff.enter(name) } else { link.handOff.enterIfSubscribed() }
        guard entered, let owned else { return .none }
        var demand = Subscribers.Demand.none
        switch owned._withUnsafeGuaranteedRef({ $0.step(input) }) {
        case .pass:
            demand = downstream.receive(input)
        case .skip:
            break
        case .skipAndReplace:
            demand = .max(1)
        case .passAndFinish:
            _ = downstream.receive(input)
            end(.finished, cancellingUpstream: true, inDelivery: true)
            return .none
        case .finish:
            end(.finished, cancellingUpstream: true, inDelivery: true)
            return .none
        case .fail(let error):
            end(.failure(mapThrown(error)), cancellingUpstream: true, inDelivery: true)
            return .none
        }
        if link.handOff.leave() {
            release()
            return .none
        }
        return demand
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        if case .trap = beforeSubscription, case .awaitingSubscription = link.current {
            preconditionFailure(
                "A publisher must send the subscription before its completion: \(name) received the completion first")
        }
        switch completion {
        case .finished: end(.finished, cancellingUpstream: false, inDelivery: false)
        case .failure(let failure): end(.failure(mapFailure(failure)), cancellingUpstream: false, inDelivery: false)
        }
    }

    /// Ends the stream from the serial path, unless the downstream cancelled first or the
    /// upstream has not subscribed yet.
    /// - Parameters:
    ///   - completion: The completion to deliver.
    ///   - cancellingUpstream: `true` when the operator, not the upstream, ends the stream.
    ///   - inDelivery: `true` inside a delivery the hand-off began, where the state is ours to
    ///     release even when the downstream cancelled first.
    @inlinable
    package func end(
        _ completion: Subscribers.Completion<Downstream.Failure>, cancellingUpstream: Bool, inDelivery: Bool
    ) {
        // While the phase is `subscribed`, `cancel` has not released the serial-path state, so
        // it can be read here.
        // `nil` when the downstream cancelled first (or the upstream has not subscribed yet):
        // nothing is delivered then.
        let upstream = link.endIfSubscribed()
        if upstream == nil, !inDelivery { return }
        // Beneath a delivery still in flight on this thread (a step that made its upstream
        // complete or send again), that delivery's step is running unretained: it lets go.
        if link.handOff.stopBeneathDeliveries(entered: inDelivery) {
            release()
        }
        guard let upstream else { return }
        if cancellingUpstream { upstream.cancel() }
        downstream.receive(completion: completion)
    }

    @inlinable
    package func release() {
        owned.releaseKept()
    }

    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        link.forward(demand, beforeSubscription: beforeSubscription, name: name)
    }

    @inlinable
    package func cancel() {
        let ignoresEarlyCancel = if case .ignore = beforeSubscription { true } else { false }
        guard let upstream = link.cancel(evenBeforeSubscription: !ignoresEarlyCancel, release: { release() }) else {
            return
        }
        upstream.cancel()
    }

    @usableFromInline
    package var description: String { "\(name)" }

    /// Combine's children. A step's own state (`removeDuplicates`' remembered element) belongs
    /// to the serial path, which uses it without a lock, so what the operator adds cannot read
    /// it from here.
    @usableFromInline
    package var customMirror: Mirror {
        switch mirror {
        case .empty:
            return Mirror(self, children: [:])
        case .downstream, .coder:
            return Mirror(self, children: ["downstream": downstream])
        case .downstreamAnd(let children):
            return Mirror(self, children: [("downstream", downstream)] + children(()))
        }
    }

    @usableFromInline
    package var playgroundDescription: Any { description }
}

extension VerdictSubscription where Downstream.Failure == UpstreamFailure {
    /// A relay for an operator whose step never throws: failures pass through unchanged.
    @inlinable
    package convenience init(
        name: StaticString, downstream: Downstream,
        beforeSubscription: BeforeSubscription = .ignore, mirror: RelayMirror = .empty,
        step: @escaping Step
    ) {
        self.init(
            name: name, downstream: downstream,
            beforeSubscription: beforeSubscription, mirror: mirror, mapFailure: { $0 },
            mapThrown: { error in preconditionFailure("\(name) has no throwing step, yet \(error) was thrown") },
            step: step)
    }
}

extension VerdictSubscription where Downstream.Failure == any Error {
    /// A relay for a `try` operator: upstream failures and thrown errors become `any Error`.
    @inlinable
    package convenience init(
        name: StaticString, downstream: Downstream,
        beforeSubscription: BeforeSubscription = .ignore, mirror: RelayMirror = .empty,
        throwingStep: @escaping Step
    ) {
        self.init(
            name: name, downstream: downstream, beforeSubscription: beforeSubscription,
            mirror: mirror, mapFailure: { $0 }, mapThrown: { $0 }, step: throwingStep)
    }
}
