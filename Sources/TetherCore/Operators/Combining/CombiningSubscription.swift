import Synchronization

/// The subscription of every zip and combine-latest publisher: locks the family's state machine
/// and performs its outcomes. Values stay typed all the way: each upstream's side stores its
/// values in the machine's slots through a `put` made where the publisher's types are known, and
/// the machine reads the slots as the output.
///
/// The downstream is held outside the lock because only the drainer the machine names calls it,
/// and only the drainer (or the canceller, when nobody drains) lets go of it. No lock is held
/// while calling out.
///
/// The machine and the downstream are the base class's `state` and `serial`, and the lock is a
/// `Locked<Void>` beside them, so that the `deinit`, which runs unspecialised, looks no type up
/// (Docs/FastWithoutTheSpecialiser.md, "Generic state in one value").
@usableFromInline
package final class CombiningSubscription<Machine: CombiningState, Downstream: Subscriber>:
    HandOffSubscriptionBase<Machine, Downstream?>, Subscription, SpecializedControl, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Machine.Slots.Output == Downstream.Input {
    @usableFromInline package typealias Slots = Machine.Slots

    /// `request` and `cancel`, specialised (see ``ControlSignal``).
    @usableFromInline
    package let control: (AnyObject, ControlSignal) -> Void

    /// Guards the machine, the base class's `state`.
    @usableFromInline
    package let lock = Locked(())

    /// Touched only by the drainer, or by `cancel` when the machine says nobody drains: the
    /// machine rules out overlapping access. The base class's `serial`.
    @inlinable
    package var downstream: Downstream? {
        get { serial }
        set { serial = newValue }
    }

    /// The subscriber again, kept for the subscription's whole life, past the end and a cancel,
    /// as Combine's zip and combineLatest keep theirs (OpenCombine's lifecycle tests of both, run
    /// against Combine); `downstream` still says whether it is delivered to, and the drainer
    /// delivers values through this `let`, which costs no copy.
    @usableFromInline
    internal let heldSubscriber: Downstream

    /// The thread calling the downstream's `receive(_:)` (``DownstreamTurn/currentThread``), or 0:
    /// a value an upstream sends from inside that call, on that thread, is told apart
    /// (``CombiningState/receiveFromDelivery(_:_:)``). Kept only for a family that tells such
    /// values apart (``CombiningState/tellsFedBackValuesApart``, a constant the specialiser folds);
    /// it stays 0 for the others. Relaxed: a thread compares it with its own
    /// number, which only it stores, and its own stores it always reads back.
    @usableFromInline
    internal let deliveringThread = Atomic<UInt>(0)

    @inlinable
    package init(downstream: Downstream, upstreams: Int) {
        control = CombiningSubscription.controlEntry
        heldSubscriber = downstream
        super.init(state: Machine(upstreams: upstreams), serial: downstream)
        Ledger.enter(self)
    }

    /// Runs `body` on the machine under the lock.
    @inlinable @inline(__always)
    package func withMachine<Result>(_ body: (inout Machine) -> Result) -> Result {
        lock.withLock { _ in body(&state) }
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription downstream; the upstreams are subscribed afterwards, so demand
    /// requested from inside `receive(subscription:)` reaches each as it subscribes.
    @inlinable
    package func start() {
        downstream?.receive(subscription: self)
        perform(withMachine { $0.delivered(.none) })
    }

    /// Subscribes to upstream number `index`, whose values `put` stores in its slot.
    @inlinable
    package func subscribe<Upstream: Publisher>(
        _ upstream: Upstream, at index: Int, into put: @escaping (inout Slots, Upstream.Output) -> Void
    ) where Upstream.Failure == Downstream.Failure {
        upstream.subscribe(CombiningSide(storage: self, index: index, put: put))
    }

    @inlinable
    package func attach(_ index: Int, _ subscription: any Subscription) {
        guard let demand = withMachine({ $0.attach(index, subscription) }) else {
            subscription.cancel()
            return
        }
        if demand > 0 {
            subscription.request(demand)
        }
    }

    @inlinable
    package func receive<Input>(_ index: Int, _ input: Input, _ put: (inout Slots, Input) -> Void)
        -> Subscribers.Demand
    {
        // Most values arrive between deliveries; one that arrives during a delivery is told
        // apart out of line, which keeps this path small enough to be inlined into the upstream.
        if Machine.tellsFedBackValuesApart, deliveringThread.load(ordering: .relaxed) != 0 {
            return receiveDuringDelivery(index, input, put)
        }
        let (outcome, output) = withMachine { $0.receive(index) { put(&$0, input) } }
        // Most values only wait for their partners: nothing to perform.
        if case .idle = outcome.step, outcome.request == nil, outcome.cancel == nil { return .none }
        return perform(consume outcome, consume output)
    }

    /// ``receive(_:_:_:)`` for a value that arrives while some thread delivers: from inside the
    /// delivery, on its thread (``CombiningState/receiveFromDelivery(_:_:)``), or from another.
    @inlinable
    @inline(never)
    package func receiveDuringDelivery<Input>(
        _ index: Int, _ input: Input, _ put: (inout Slots, Input) -> Void
    ) -> Subscribers.Demand {
        let fromDelivery = deliveringThread.load(ordering: .relaxed) == DownstreamTurn.currentThread
        return perform(
            withMachine {
                fromDelivery ? $0.receiveFromDelivery(index) { put(&$0, input) } : $0.receive(index) { put(&$0, input) }
            })
    }

    @inlinable
    package func complete(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        perform(withMachine { $0.complete(index, completion.eraseError()) })
    }

    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        control(self, .request(demand))
    }

    @inlinable
    package func cancel() {
        control(self, .cancel)
    }

    @inlinable
    package func requestNow(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(Machine.name) was asked for .none")
        perform(withMachine { $0.request(demand) })
    }

    @inlinable
    package func cancelNow() {
        let (upstreams, release) = withMachine { $0.cancel() }
        if release { downstream = nil }
        for subscription in upstreams { subscription.cancel() }
    }

    /// Makes the outcome's calls, then runs the steps as the drainer until the machine goes idle
    /// (a `.deliver` step's output is the one handed out with it). The handout is the drain's own,
    /// so that a combination is let go of once delivered, not kept by the caller until the drain
    /// ends.
    /// - Returns: The demand owed to the upstream whose `receive(_:)` this runs in (see
    ///   ``CombiningState/sender``).
    @inlinable
    @discardableResult
    package func perform(_ handout: consuming CombiningHandout<Downstream.Input>) -> Subscribers.Demand {
        let output = handout.output.take()
        return perform(handout.outcome, consume output)
    }

    /// ``perform(_:)`` with the outcome and its output apart, as the usual path has them; both
    /// are the drain's own, and callers hand them over with `consume`.
    @inlinable
    @discardableResult
    package func perform(
        _ first: consuming CombiningOutcome, _ firstOutput: consuming Downstream.Input?
    ) -> Subscribers.Demand {
        var outcome = consume first
        var output = consume firstOutput
        var thread: UInt = 0
        while true {
            if outcome.request != nil || outcome.cancel != nil {
                call(outcome)
            }
            switch outcome.step {
            case .idle:
                return outcome.returned
            case .release:
                downstream = nil
                return .none
            case .deliver:
                guard let value = output.take() else {
                    preconditionFailure("\(Machine.name): a delivery was handed out without its output")
                }
                // Called where it is kept, a `let`: no copy, no retain.
                if Machine.tellsFedBackValuesApart {
                    if thread == 0 { thread = DownstreamTurn.currentThread }
                    deliveringThread.store(thread, ordering: .relaxed)
                }
                let more = heldSubscriber.receive(value)
                if Machine.tellsFedBackValuesApart { deliveringThread.store(0, ordering: .relaxed) }
                // Settled: the turn is over with nothing to do, which an idle outcome says.
                (outcome, output) = withMachine {
                    $0.settle(more) ? (CombiningOutcome(), nil) : $0.delivered(more)
                }
            case .complete(let completion):
                let released = downstream
                downstream = nil
                released?.receive(completion: completion.restoringFailure(Downstream.Failure.self))
                return .none
            }
        }
    }

    /// Cancels and asks the upstreams an outcome names, apart from the usual path, which has none.
    @inlinable
    @inline(never)
    package func call(_ outcome: borrowing CombiningOutcome) {
        if let cancel = outcome.cancel {
            for subscription in cancel { subscription.cancel() }
        }
        if let request = outcome.request {
            for (position, subscription) in request.enumerated() where position != outcome.skip {
                subscription.request(outcome.demand)
            }
        }
    }

    @usableFromInline
    package var description: String { "\(Machine.name)" }

    @usableFromInline
    package var customMirror: Mirror {
        let demand = withMachine { $0.demand }
        return Mirror(self, children: ["downstreamDemand": demand])
    }

    @usableFromInline
    package var playgroundDescription: Any { description }
}

/// What a zip or combine-latest hands each upstream: a value-type relay that tags signals with
/// the upstream's position.
@usableFromInline
package struct CombiningSide<Input, Machine: CombiningState, Downstream: Subscriber>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Machine.Slots.Output == Downstream.Input {
    @usableFromInline package typealias Failure = Downstream.Failure

    @usableFromInline package let storage: CombiningSubscription<Machine, Downstream>
    @usableFromInline package let index: Int
    /// Stores a value in this upstream's slot.
    @usableFromInline package let put: (inout Machine.Slots, Input) -> Void
    @usableFromInline package let combineIdentifier = CombineIdentifier()

    @inlinable
    package init(
        storage: CombiningSubscription<Machine, Downstream>, index: Int,
        put: @escaping (inout Machine.Slots, Input) -> Void
    ) {
        self.storage = storage
        self.index = index
        self.put = put
    }

    @inlinable
    package func receive(subscription: any Subscription) {
        storage.attach(index, subscription)
    }

    @inlinable
    package func receive(_ input: Input) -> Subscribers.Demand {
        storage.receive(index, input, put)
    }

    @inlinable
    package func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        storage.complete(index, completion)
    }

    @usableFromInline package var description: String { "\(Machine.name)" }
    @usableFromInline package var customMirror: Mirror { Mirror(self, children: ["index": index]) }
    @usableFromInline package var playgroundDescription: Any { description }
}
