import Synchronization

/// The subscription of every zip and combine-latest publisher: locks the family's state machine
/// and performs its outcomes. Values stay typed all the way: each upstream's side stores its
/// values in the machine's slots through a `put` made where the publisher's types are known, and
/// the machine reads the slots as the output.
///
/// The downstream is held outside the lock because only the drainer the machine names calls it.
/// The machine ends the stream once, with its completion or a cancel, and says nothing more after
/// that; so the subscription keeps no mark of its own that the downstream is done with. No lock
/// is held while calling out.
///
/// The machine is the base class's `state`, and the lock is a `Locked<Void>` beside it, so that
/// the `deinit`, which runs unspecialised, looks no type up (Docs/FastWithoutTheSpecialiser.md,
/// "Generic state in one value").
@usableFromInline
package final class CombiningSubscription<Machine: CombiningState, Downstream: Subscriber>:
    SubscriptionBase<Machine>, Subscription, SpecializedControl, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Machine.Slots.Output == Downstream.Input {
    @usableFromInline package typealias Slots = Machine.Slots

    /// `request` and `cancel`, specialised (see ``ControlSignal``).
    @usableFromInline
    package let control: (AnyObject, ControlSignal) -> Void

    /// Guards the machine, the base class's `state`.
    @usableFromInline
    package let lock = Locked(())

    /// The subscriber, kept for the subscription's whole life, past the end and a cancel, as
    /// Combine's zip and combineLatest keep theirs (OpenCombine's lifecycle tests of both, run
    /// against Combine). The drainer calls it through this `let`, which costs no copy.
    ///
    /// No optional beside it says whether it is still delivered to: the machine's steps say so,
    /// and code that ran unspecialised looked such an optional's type up on every value, to size
    /// the room for the one it took out at the completion.
    @usableFromInline
    internal let heldSubscriber: Downstream

    /// The thread calling the downstream's `receive(_:)` (``DownstreamTurn/currentThread``), or 0:
    /// a value an upstream sends from inside that call, on that thread, is told apart
    /// (``CombiningState/receiveFromDelivery(_:into:_:)``). Kept only for a family that tells such
    /// values apart (``CombiningState/tellsFedBackValuesApart``, a constant the specialiser folds);
    /// it stays 0 for the others. Relaxed: a thread compares it with its own
    /// number, which only it stores, and its own stores it always reads back.
    @usableFromInline
    internal let deliveringThread = Atomic<UInt>(0)

    @inlinable
    package init(downstream: Downstream, upstreams: Int) {
        control = CombiningSubscription.controlEntry
        heldSubscriber = downstream
        super.init(state: Machine(upstreams: upstreams))
        Ledger.enter(self)
    }

    /// Runs `body` on the machine under the lock.
    @inlinable @inline(__always)
    package func withMachine<Result>(_ body: (inout Machine) -> Result) -> Result {
        lock.withLock { _ in body(&state) }
    }

    /// Runs `body` with the place where the machine puts the output of a `.deliver` step: room
    /// for one output on the stack, uninitialised (see ``CombiningState``).
    @inlinable @inline(__always)
    @discardableResult
    package func withOutputPlace<Result>(_ body: (UnsafeMutablePointer<Downstream.Input>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: Downstream.Input.self, capacity: 1) { body($0.baseAddress.unsafelyUnwrapped) }
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription downstream; the upstreams are subscribed afterwards, so demand
    /// requested from inside `receive(subscription:)` reaches each as it subscribes.
    @inlinable
    package func start() {
        heldSubscriber.receive(subscription: self)
        withOutputPlace { output in perform(withMachine { $0.delivered(.none, into: output) }, output) }
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
        return withOutputPlace { output in
            let outcome = withMachine { $0.receive(index, into: output) { put(&$0, input) } }
            // Most values only wait for their partners: nothing to perform.
            if case .idle = outcome.step, outcome.request == nil, outcome.cancel == nil { return .none }
            return perform(consume outcome, output)
        }
    }

    /// ``receive(_:_:_:)`` for a value that arrives while some thread delivers: from inside the
    /// delivery, on its thread (``CombiningState/receiveFromDelivery(_:into:_:)``), or from
    /// another.
    @inlinable
    @inline(never)
    package func receiveDuringDelivery<Input>(
        _ index: Int, _ input: Input, _ put: (inout Slots, Input) -> Void
    ) -> Subscribers.Demand {
        let fromDelivery = deliveringThread.load(ordering: .relaxed) == DownstreamTurn.currentThread
        return withOutputPlace { output in
            let outcome = withMachine {
                fromDelivery
                    ? $0.receiveFromDelivery(index, into: output) { put(&$0, input) }
                    : $0.receive(index, into: output) { put(&$0, input) }
            }
            return perform(consume outcome, output)
        }
    }

    @inlinable
    package func complete(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        withOutputPlace { output in perform(withMachine { $0.complete(index, completion.eraseError()) }, output) }
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
        withOutputPlace { output in perform(withMachine { $0.request(demand, into: output) }, output) }
    }

    @inlinable
    package func cancelNow() {
        let (upstreams, _) = withMachine { $0.cancel() }
        for subscription in upstreams { subscription.cancel() }
    }

    /// Makes the outcome's calls, then runs the steps as the drainer until the machine goes idle.
    /// A `.deliver` step's output is in `output`, the place the machine was handed, and is moved
    /// out to the downstream, so that a combination is let go of once delivered.
    /// - Returns: The demand owed to the upstream whose `receive(_:)` this runs in (see
    ///   ``CombiningState/sender``).
    @inlinable
    @discardableResult
    package func perform(
        _ first: consuming CombiningOutcome, _ output: UnsafeMutablePointer<Downstream.Input>
    ) -> Subscribers.Demand {
        var outcome = consume first
        var thread: UInt = 0
        while true {
            if outcome.request != nil || outcome.cancel != nil {
                call(outcome)
            }
            switch outcome.step {
            case .idle:
                return outcome.returned
            case .release:
                return .none
            case .deliver:
                // Called where it is kept, a `let`: no copy, no retain.
                if Machine.tellsFedBackValuesApart {
                    if thread == 0 { thread = DownstreamTurn.currentThread }
                    deliveringThread.store(thread, ordering: .relaxed)
                }
                let more = heldSubscriber.receive(output.move())
                if Machine.tellsFedBackValuesApart { deliveringThread.store(0, ordering: .relaxed) }
                // Settled: the turn is over with nothing to do, which an idle outcome says.
                outcome = withMachine { $0.settle(more) ? CombiningOutcome() : $0.delivered(more, into: output) }
            case .complete(let completion):
                finish(completion)
                return .none
            }
        }
    }

    /// Hands the downstream its completion: the drainer's last step. Out of line, so that the
    /// typed completion it makes, a type built from the generic parameters, is not looked up on
    /// every entry to ``perform(_:_:)`` where that runs unspecialised.
    @inlinable
    @inline(never)
    package func finish(_ completion: Subscribers.Completion<any Error>) {
        heldSubscriber.receive(completion: completion.restoringFailure(Downstream.Failure.self))
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
