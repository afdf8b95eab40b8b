import TetherCore

/// The subscription of ``Publishers/Amb`` and ``Publishers/AmbMany``: races competitors indexed by
/// position, mirrors the first to send a value or complete, and cancels the rest.
///
/// Who wins, and whether the stream is over, is decided by an ``AmbState`` under one `Locked`; it
/// is not generic, so the per-value path builds no generic type. The downstream is a plain stored
/// property that only the winner's serial signal path touches, handed over through a
/// ``ReleaseHandOff`` so that a `cancel` from another thread releases it exactly once. No call out
/// is made under the lock; a loser's signals after the decision are dropped.
@usableFromInline
internal final class AmbSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal let state: Locked<AmbState>

    @usableFromInline
    internal let handOff = ReleaseHandOff()

    /// Touched only by the winner's serial path, or by the side the hand-off names.
    @usableFromInline
    @exclusivity(unchecked)
    internal var downstream: Downstream?

    @inlinable
    internal init(downstream: Downstream, competitors: Int) {
        self.downstream = downstream
        state = Locked(AmbState(competitors: competitors))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription downstream; the competitors are subscribed afterwards, so that the
    /// demand it requests at once reaches each of them.
    @inlinable
    internal func start() {
        // Nobody else can touch the downstream yet: no competitor is subscribed.
        handOff.open()
        downstream?.receive(subscription: self)
        if handOff.leave() {
            downstream = nil
        }
    }

    /// Subscribes to competitor `index`, unless the race is already decided or over.
    @inlinable
    internal func subscribe<Competitor: Publisher>(_ competitor: Competitor, at index: Int)
    where Competitor.Output == Downstream.Input, Competitor.Failure == Downstream.Failure {
        guard state.withLock({ $0.isOpen }) else { return }
        competitor.receive(subscriber: Side(self, index: index))
    }

    @inlinable
    internal func sideReceive(_ index: Int, subscription: any Subscription) {
        guard let demand = state.withLock({ $0.attach(subscription, at: index) }) else {
            subscription.cancel()
            return
        }
        if demand > 0 {
            subscription.request(demand)
        }
    }

    @inlinable
    internal func sideReceive(_ index: Int, _ input: Downstream.Input) -> Subscribers.Demand {
        switch state.withLock({ $0.claim(index) }) {
        case .drop:
            return .none
        case .deliver:
            break
        case .won(let losers):
            for loser in losers { loser.cancel() }
        }
        guard handOff.enter("Amb") else { return .none }
        // Borrowed: the hand-off leaves a cancel's release to the end of this delivery.
        let more = InPlace.receive(input, by: &downstream)
        if handOff.leave() {
            self.downstream = nil
            return .none
        }
        return more
    }

    @inlinable
    internal func sideReceive(_ index: Int, completion: Subscribers.Completion<Downstream.Failure>) {
        guard let losers = state.withLock({ $0.complete(index) }) else { return }
        for loser in losers { loser.cancel() }
        let released = downstream
        // From inside a value's delivery (a competitor that completes reentrantly), the
        // subscriber is still being called where it is kept: that delivery lets go of it.
        if handOff.stopBeneathDeliveries(entered: false) {
            downstream = nil
        }
        released?.receive(completion: completion)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: Amb was asked for .none")
        let targets = state.withLock { $0.request(demand) }
        for target in targets { target.request(demand) }
    }

    @inlinable
    internal func cancel() {
        guard let held = state.withLock({ $0.cancel() }) else { return }
        if handOff.stopFromOutside() {
            downstream = nil
        }
        for subscription in held { subscription.cancel() }
    }

    @usableFromInline
    internal var description: String { "Amb" }

    @usableFromInline
    internal var customMirror: Mirror {
        let winner = state.withLock { $0.winner }
        return Mirror(self, children: ["winner": winner as Any])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

extension AmbSubscription: SideOwner {
    @usableFromInline internal var sideDescription: String { "Amb" }
}
