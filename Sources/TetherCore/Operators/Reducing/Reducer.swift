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
/// ``Publishers/TryContainsWhere``, ``Publishers/Collect``, and the ones that keep one value:
/// ``Publishers/First``, ``Publishers/FirstWhere``, ``Publishers/TryFirstWhere``,
/// ``Publishers/Last``, ``Publishers/LastWhere`` and ``Publishers/TryLastWhere``.
///
/// Each operator supplies a `step` that folds one value into `result` (`nil` until there is
/// something to publish), and may settle the result early or throw. The rules, as Combine's:
///
/// - On the upstream's subscription it hands itself downstream, then asks the upstream for
///   `.unlimited` straight away, before the downstream requests anything.
/// - When the upstream finishes, the result (if any) and `.finished` go down once the downstream
///   has requested something; until then both wait, and the first request delivers them.
///   Later requests change nothing, since at most one value ever goes down. A request for
///   `.none` traps.
/// - A settled step cancels the upstream and then behaves like a finish.
/// - A throwing step cancels the upstream and fails the downstream with the error; an upstream
///   failure is passed on without demand.
/// - A value or completion that arrives before the subscription, or after the end, is ignored
///   (a value gets `.none` back); so is a second subscription, which is cancelled. A `cancel`
///   before the subscription arrives changes nothing.
/// - Any ending (and `cancel`) releases the step and the result. The downstream is held for the
///   reducer's whole life, as Combine holds it.
///
/// The race between the serial path and `cancel` is decided by a ``ReducerState``, kept by the
/// base class under `lock`; the serial-path state (a ``ReducerSerial``) is handed over through a
/// ``ReleaseHandOff``, so folding a value in takes
/// no lock.
@usableFromInline
internal final class Reducer<Input, UpstreamFailure: Error, Downstream: Subscriber>:
    HandOffSubscriptionBase<
        ReducerState<Downstream.Input>, ReducerSerial<Input, Downstream.Input, UpstreamFailure, Downstream.Failure>
    >, Subscriber, Subscription, SpecializedControl, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal typealias Failure = UpstreamFailure

    @usableFromInline
    internal typealias Output = Downstream.Input

    @usableFromInline
    internal typealias Serial = ReducerSerial<Input, Output, UpstreamFailure, Downstream.Failure>

    @usableFromInline
    internal typealias Step = Serial.Step

    /// Why the serial path ends the stream, with the failure it carries.
    @usableFromInline
    internal enum Ending {
        case upstreamFinished
        case settled
        case upstreamFailed(UpstreamFailure)
        case stepThrew(Downstream.Failure)

        /// The ending as the state machine weighs it, without its failure.
        @inlinable
        var kind: ReducerState<Output>.Ending {
            switch self {
            case .upstreamFinished: .upstreamFinished
            case .settled: .settled
            case .upstreamFailed: .upstreamFailed
            case .stepThrew: .stepThrew
            }
        }
    }

    /// How the subscription shows itself in a mirror, as Combine's does.
    @usableFromInline
    internal enum Reflection: Sendable {
        /// `downstream`, `result`, `initial` and `status`.
        case fold
        /// Only `count`, the number of elements collected (``Publishers/Collect``).
        case collected
    }

    /// Guards the base class's `state`, the race between the serial path and `cancel`.
    @usableFromInline
    internal let lock = Locked(())

    @usableFromInline
    internal let handOff = ReleaseHandOff()

    /// Set by `cancel`; read between the final value and `.finished`, so a downstream that
    /// cancels from inside `receive(_:)` gets nothing after its `cancel()` returns.
    @usableFromInline
    internal let cancelled = Atomic<Bool>(false)

    /// Held for the reducer's whole life, as Combine holds it: a downstream that keeps its
    /// subscription after the end keeps the reducer, and so itself, alive until it lets go.
    @usableFromInline
    internal let downstream: Downstream

    @usableFromInline
    internal let name: StaticString

    @usableFromInline
    internal let reflection: Reflection

    /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose witness
    /// runs the unspecialised body (see ``ControlSignal``).
    @usableFromInline
    internal let control: (AnyObject, ControlSignal) -> Void

    @inlinable
    internal init(
        name: StaticString, downstream: Downstream, initial: Output?, reflection: Reflection = .fold,
        failure: @escaping (UpstreamFailure) -> Downstream.Failure, step: @escaping Step
    ) {
        self.name = name
        self.reflection = reflection
        self.downstream = downstream
        control = Reducer.controlEntry
        super.init(
            state: ReducerState(initial: initial),
            serial: Serial(owned: Serial.Owned(step: step, failure: failure), result: initial))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        guard lock.withLock({ _ in state.attach(subscription) }) else {
            subscription.cancel()
            return
        }
        handOff.open()
        downstream.receive(subscription: self)
        if handOff.leave() {
            release()
        }
        // A downstream that cancelled from inside `receive(subscription:)` wants nothing more.
        if !cancelled.load(ordering: .acquiring) {
            subscription.request(.unlimited)
        }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        guard handOff.enterIfSubscribed(), let owned = serial.owned else { return .none }
        let step: ReductionStep
        do {
            step = try owned.step(&serial.result, input)
        } catch {
            end(.stepThrew(error), inDelivery: true)
            return .none
        }
        if case .settled = step {
            end(.settled, inDelivery: true)
            return .none
        }
        if handOff.leave() {
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

    /// Ends the stream from the serial path, unless `cancel` got there first or the upstream
    /// has not subscribed yet (Combine ignores such a completion).
    @inlinable
    internal func end(_ ending: Ending, inDelivery: Bool) {
        let action = lock.withLock { _ in state.end(ending.kind, result: serial.result) }
        // Moved into the switch, and the upstream to cancel moved out of its case: checking a case
        // of the action, reading it in place, or calling through the optional copied what it held
        // and destroyed the copy through its value witnesses (it is generic in the result).
        switch consume action {
        case .nothing:
            guard inDelivery else { return }
            // A cancel during this delivery left the release to it.
            handOff.stopFromSerialPath()
            release()
        case .park(let cancel):
            _ = stopRunning()
            if case .some(let upstream) = consume cancel { upstream.cancel() }
        case .finish(let result, let cancel):
            _ = stopRunning()
            if case .some(let upstream) = consume cancel { upstream.cancel() }
            deliver(result, to: downstream)
        case .fail(let cancel):
            let owned = stopRunning()
            if case .some(let upstream) = consume cancel { upstream.cancel() }
            switch ending {
            case .upstreamFailed(let failure):
                downstream.receive(completion: .failure(owned.failure(failure)))
            case .stepThrew(let error):
                downstream.receive(completion: .failure(error))
            case .upstreamFinished, .settled:
                preconditionFailure("\(name) failed on a finish")
            }
        }
    }

    /// Stops the serial path of a stream that was running, so that `cancel` has not released its
    /// state, and releases that state; returns what it owned.
    @inlinable
    internal func stopRunning() -> Serial.Owned {
        guard let owned = serial.owned else { preconditionFailure("\(name) lost its state while subscribed") }
        handOff.stopFromSerialPath()
        release()
        return owned
    }

    @inlinable
    internal func release() {
        serial.owned = nil
        serial.result = nil
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        control(self, .request(demand))
    }

    @inlinable
    internal func cancel() {
        control(self, .cancel)
    }

    @inlinable
    internal func requestNow(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        // One decision under the lock, so a finish that parks meanwhile cannot be missed.
        if case .some(let result) = lock.withLock({ _ in state.request() }) {
            deliver(result, to: downstream)
        }
    }

    /// Sends the result, if any, then `.finished` unless the downstream cancelled meanwhile.
    @inlinable
    internal func deliver(_ result: Output?, to downstream: Downstream) {
        if let result {
            _ = downstream.receive(result)
            if cancelled.load(ordering: .acquiring) { return }
        }
        downstream.receive(completion: .finished)
    }

    @inlinable
    internal func cancelNow() {
        let cancellation = lock.withLock { _ -> ReducerState<Output>.Cancellation? in
            let cancellation = state.cancel()
            if cancellation != nil { cancelled.store(true, ordering: .releasing) }
            return cancellation
        }
        // A parked result is released with `cancellation`, outside the lock.
        guard let upstream = cancellation?.upstream else { return }
        if handOff.stopFromOutside() {
            release()
        }
        upstream.cancel()
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    /// Combine's children. The running result belongs to the serial path, which folds without a
    /// lock, so `result` (and Collect's `count`) shows the result only once the upstream is done
    /// and it waits for a request; before that it shows `nil` (a count of 0).
    @usableFromInline
    internal var customMirror: Mirror {
        // Only references are taken under the lock: describing them may run user code.
        let (settled, initial, upstream) = lock.withLock { _ -> (Output?, Output?, UpstreamStatus) in
            (state.parked ?? nil, state.initial, state.upstream)
        }
        let status =
            switch upstream {
            case .subscribed(let upstream): "subscribed(\(upstream))"
            case .awaitingSubscription: "awaitingSubscription"
            case .terminal: "terminal"
            }
        switch reflection {
        case .fold:
            let children: KeyValuePairs<String, Any> = [
                "downstream": downstream,
                "result": settled as Any,
                "initial": initial as Any,
                "status": status,
            ]
            return Mirror(self, children: children)
        case .collected:
            return Mirror(self, children: ["count": (settled as? any Collection)?.count ?? 0])
        }
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
