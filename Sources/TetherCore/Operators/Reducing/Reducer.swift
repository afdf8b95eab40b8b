import Synchronization

/// What a reducer's step tells its subscription after folding in one upstream value.
@usableFromInline
internal enum ReductionStep: Sendable {
    /// Keep consuming the upstream.
    case more
    /// The result is settled (`contains` found a match, `allSatisfy` a counterexample): cancel
    /// the upstream and publish the result now.
    case settled
}

/// The subscription behind every operator that folds the whole upstream into at most one value:
/// ``Publishers/Reduce``, ``Publishers/TryReduce``, ``Publishers/Count``,
/// ``Publishers/Comparison``, ``Publishers/TryComparison``, ``Publishers/AllSatisfy``,
/// ``Publishers/TryAllSatisfy``, ``Publishers/Contains``, ``Publishers/ContainsWhere``,
/// ``Publishers/TryContainsWhere`` and ``Publishers/Collect``.
///
/// Each operator supplies a `step` that folds one value into `result` (`nil` until there is
/// something to publish), and may settle the result early or throw. The rules, as Combine's:
///
/// - The first positive request from downstream asks the upstream for `.unlimited`; later
///   requests change nothing, since at most one value ever goes down.
/// - When the upstream finishes, the result (if any) and `.finished` go down. If the downstream
///   has not asked for anything yet, a pending result waits for its first request (the
///   completion alone needs no demand).
/// - A settled step cancels the upstream and then behaves like a finish.
/// - A throwing step cancels the upstream and fails the downstream with the error; an upstream
///   failure is passed on without demand.
/// - Any ending (and `cancel`) releases the downstream, the step and the result.
///
/// The race between the serial path and `cancel` is decided under `link`; the serial-path state
/// is handed over through a ``DeliveryGate``, so folding a value in takes no lock.
@usableFromInline
internal final class Reducer<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    @usableFromInline
    internal typealias Failure = UpstreamFailure

    @usableFromInline
    internal typealias Output = Downstream.Input

    /// Folds one value into the result; throws only for the `try` operators.
    @usableFromInline
    internal typealias Step = (inout Output?, Input) throws(Downstream.Failure) -> ReductionStep

    /// What the serial path needs; `nil` once released.
    @usableFromInline
    internal struct Owned {
        @usableFromInline let downstream: Downstream
        @usableFromInline let step: Step
        /// Turns an upstream failure into the downstream's failure type.
        @usableFromInline let failure: (UpstreamFailure) -> Downstream.Failure

        @inlinable
        init(downstream: Downstream, step: @escaping Step, failure: @escaping (UpstreamFailure) -> Downstream.Failure) {
            self.downstream = downstream
            self.step = step
            self.failure = failure
        }
    }

    @usableFromInline
    internal enum Link {
        case awaitingSubscription
        case subscribed(any Subscription, requested: Bool)
        /// The upstream is done and the result waits for the downstream's first request.
        case parked(Downstream, Output)
        case terminal
    }

    /// Why the serial path ends the stream.
    @usableFromInline
    internal enum Ending {
        case upstreamFinished
        case settled
        case upstreamFailed(UpstreamFailure)
        case stepThrew(Downstream.Failure)
    }

    /// What to do once the lock is released.
    @usableFromInline
    internal enum Outcome {
        case nothing
        case park(cancel: (any Subscription)?)
        case finish(Owned, Output?, cancel: (any Subscription)?)
        case upstreamFailed(Owned, UpstreamFailure)
        case stepThrew(Owned, Downstream.Failure, cancel: any Subscription)
    }

    @usableFromInline
    internal let link = Locked(Link.awaitingSubscription)

    @usableFromInline
    internal let gate = DeliveryGate()

    /// Set by `cancel`; read between the final value and `.finished`, so a downstream that
    /// cancels from inside `receive(_:)` gets nothing after its `cancel()` returns.
    @usableFromInline
    internal let cancelled = Atomic<Bool>(false)

    /// Serial path only, or whichever side the gate names.
    @usableFromInline
    internal var owned: Owned?

    /// The result so far; serial path only, like `owned`.
    @usableFromInline
    internal var result: Output?

    @usableFromInline
    internal let name: StaticString

    @inlinable
    internal init(
        name: StaticString, downstream: Downstream, initial: Output?,
        failure: @escaping (UpstreamFailure) -> Downstream.Failure, step: @escaping Step
    ) {
        self.name = name
        owned = Owned(downstream: downstream, step: step, failure: failure)
        result = initial
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        let accepted = link.withLock { link -> Bool in
            guard case .awaitingSubscription = link else { return false }
            link = .subscribed(subscription, requested: false)
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        gate.open()
        if let downstream = owned?.downstream {
            downstream.receive(subscription: self)
        }
        if gate.leave() {
            release()
        }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        guard gate.enter(name), let owned else { return .none }
        let step: ReductionStep
        do {
            step = try owned.step(&result, input)
        } catch {
            end(.stepThrew(error), inDelivery: true)
            return .none
        }
        if case .settled = step {
            end(.settled, inDelivery: true)
            return .none
        }
        if gate.leave() {
            release()
        }
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished: end(.upstreamFinished, inDelivery: false)
        case .failure(let failure): end(.upstreamFailed(failure), inDelivery: false)
        }
    }

    /// Ends the stream from the serial path, unless `cancel` got there first.
    @usableFromInline
    internal func end(_ ending: Ending, inDelivery: Bool) {
        let outcome = link.withLock { link -> Outcome in
            switch link {
            case .awaitingSubscription:
                preconditionFailure(
                    "A publisher must send the subscription before its completion: \(name) received the completion first")
            case .parked, .terminal:
                return .nothing
            case .subscribed(let upstream, let requested):
                // The link was still live, so `cancel` has not released `owned`.
                guard let owned else { preconditionFailure("\(name) lost its state while subscribed") }
                switch ending {
                case .upstreamFailed(let failure):
                    link = .terminal
                    return .upstreamFailed(owned, failure)
                case .stepThrew(let error):
                    link = .terminal
                    return .stepThrew(owned, error, cancel: upstream)
                case .upstreamFinished, .settled:
                    let cancel: (any Subscription)? = if case .settled = ending { upstream } else { nil }
                    if !requested, let result {
                        link = .parked(owned.downstream, result)
                        return .park(cancel: cancel)
                    }
                    link = .terminal
                    return .finish(owned, result, cancel: cancel)
                }
            }
        }
        if case .nothing = outcome, !inDelivery { return }
        // Either this side ended the stream, or a cancel during this delivery left the release
        // to it: the serial-path state is ours either way.
        gate.stopFromSerialPath()
        release()
        switch outcome {
        case .nothing:
            return
        case .park(let cancel):
            cancel?.cancel()
        case .finish(let owned, let result, let cancel):
            cancel?.cancel()
            deliver(result, to: owned.downstream)
        case .upstreamFailed(let owned, let failure):
            owned.downstream.receive(completion: .failure(owned.failure(failure)))
        case .stepThrew(let owned, let error, let cancel):
            cancel.cancel()
            owned.downstream.receive(completion: .failure(error))
        }
    }

    @usableFromInline
    internal func release() {
        owned = nil
        result = nil
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        // One decision under the lock, so a finish that parks meanwhile cannot be missed.
        let (upstream, parked) = link.withLock { link -> ((any Subscription)?, (Downstream, Output)?) in
            switch link {
            case .subscribed(let upstream, requested: false):
                link = .subscribed(upstream, requested: true)
                return (upstream, nil)
            case .parked(let downstream, let result):
                link = .terminal
                return (nil, (downstream, result))
            case .awaitingSubscription, .subscribed, .terminal:
                return (nil, nil)
            }
        }
        upstream?.request(.unlimited)
        if let (downstream, result) = parked {
            deliver(result, to: downstream)
        }
    }

    /// Sends the result, if any, then `.finished` unless the downstream cancelled meanwhile.
    @usableFromInline
    internal func deliver(_ result: Output?, to downstream: Downstream) {
        if let result {
            _ = downstream.receive(result)
            if cancelled.load(ordering: .acquiring) { return }
        }
        downstream.receive(completion: .finished)
    }

    @inlinable
    internal func cancel() {
        cancelled.store(true, ordering: .releasing)
        let previous = link.withLock { link -> Link in
            defer { link = .terminal }
            return link
        }
        // A parked downstream and result are released with `previous`, outside the lock.
        guard case .subscribed(let upstream, _) = previous else { return }
        if gate.stopFromOutside() {
            release()
        }
        upstream.cancel()
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    /// No children: the result and the downstream belong to the serial path.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
