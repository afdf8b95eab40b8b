/// The subscription of every zip and combine-latest publisher: locks the family's state machine
/// and performs its outcomes, assembling each set of values into the output tuple.
///
/// The downstream is a plain stored property because only the drainer the machine names calls
/// it, and only the drainer (or the canceller, when nobody drains) lets go of it. No lock is held
/// while calling out.
@usableFromInline
internal final class CombiningStorage<Machine: CombiningMachine, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal let machine: Locked<Machine>

    /// Touched only by the drainer, or by `cancel` when the machine says nobody drains.
    @usableFromInline
    internal var downstream: Downstream?

    /// Turns one value per upstream, in order, into the output tuple.
    @usableFromInline
    internal let assemble: ([Any]) -> Downstream.Input

    @inlinable
    internal init(downstream: Downstream, upstreams: Int, assemble: @escaping ([Any]) -> Downstream.Input) {
        self.downstream = downstream
        self.assemble = assemble
        machine = Locked(Machine(upstreams: upstreams))
        SubscriptionLedger.enter(self)
    }

    deinit {
        SubscriptionLedger.leave(self)
    }

    /// Hands the subscription downstream; the upstreams are subscribed afterwards, so demand
    /// requested from inside `receive(subscription:)` reaches each as it subscribes.
    @inlinable
    internal func start() {
        downstream?.receive(subscription: self)
        perform(machine.withLock { $0.delivered(.none) })
    }

    /// Subscribes to upstream number `index`.
    @inlinable
    internal func subscribe<Upstream: Publisher>(_ upstream: Upstream, at index: Int)
    where Upstream.Failure == Downstream.Failure {
        upstream.receive(subscriber: CombiningSide<Upstream.Output, Machine, Downstream>(storage: self, index: index))
    }

    @inlinable
    internal func attach(_ index: Int, _ subscription: any Subscription) {
        guard let demand = machine.withLock({ $0.attach(index, subscription) }) else {
            subscription.cancel()
            return
        }
        if demand > 0 {
            subscription.request(demand)
        }
    }

    @inlinable
    internal func receive(_ index: Int, _ value: Any) -> Subscribers.Demand {
        perform(machine.withLock { $0.outcome(receiving: value, at: index) })
        return .none
    }

    @inlinable
    internal func complete(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        perform(machine.withLock { $0.complete(index, completion.eraseError()) })
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(Machine.name) was asked for .none")
        perform(machine.withLock { $0.request(demand) })
    }

    @inlinable
    internal func cancel() {
        let (upstreams, release) = machine.withLock { $0.cancel() }
        if release { downstream = nil }
        for subscription in upstreams { subscription.cancel() }
    }

    /// Makes the outcome's calls, then runs the steps as the drainer until the machine goes idle.
    @inlinable
    internal func perform(_ outcome: CombiningOutcome) {
        var outcome = outcome
        while true {
            for subscription in outcome.cancel { subscription.cancel() }
            for subscription in outcome.request { subscription.request(outcome.demand) }
            switch outcome.step {
            case .idle:
                return
            case .release:
                downstream = nil
                return
            case .deliver(let values):
                let more = downstream?.receive(assemble(values)) ?? .none
                outcome = machine.withLock { $0.delivered(more) }
            case .complete(let completion):
                let released = downstream
                downstream = nil
                released?.receive(completion: completion.restoringFailure(Downstream.Failure.self))
                return
            }
        }
    }

    @usableFromInline
    internal var description: String { "\(Machine.name)" }

    @usableFromInline
    internal var customMirror: Mirror {
        let demand = machine.withLock { $0.demand }
        return Mirror(self, children: ["downstreamDemand": demand])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

/// What a zip or combine-latest hands each upstream: a value-type relay that tags signals with
/// the upstream's position.
@usableFromInline
internal struct CombiningSide<Input, Machine: CombiningMachine, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let storage: CombiningStorage<Machine, Downstream>
    @usableFromInline let index: Int
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(storage: CombiningStorage<Machine, Downstream>, index: Int) {
        self.storage = storage
        self.index = index
    }

    @inlinable
    func receive(subscription: any Subscription) {
        storage.attach(index, subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        storage.receive(index, input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        storage.complete(index, completion)
    }

    @usableFromInline var description: String { "\(Machine.name)" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: ["index": index]) }
    @usableFromInline var playgroundDescription: Any { description }
}
