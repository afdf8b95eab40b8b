import TetherCore

/// The subscription of ``Publishers/Amb`` and ``Publishers/AmbMany``: races competitors indexed by
/// position, mirrors the first to send a value or complete, and cancels the rest.
///
/// Who wins, and whether the stream is over, is decided in one `Locked` whose results are not
/// generic, so the per-value path builds no generic type. The downstream is a plain stored
/// property that only the winner's serial signal path touches, handed over through a
/// ``ReleaseHandOff`` so that a `cancel` from another thread releases it exactly once. No call out
/// is made under the lock; a loser's signals after the decision are dropped.
@usableFromInline
internal final class AmbSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal enum Competitor {
        case awaitingSubscription
        case active(any Subscription)
        case done
    }

    /// What a competitor's signal does, as decided under the lock.
    @usableFromInline
    internal enum Verdict {
        /// The stream is over, or another competitor won: drop the signal.
        case drop
        /// The sender is the winner: deliver.
        case deliver
        /// The sender has just won: cancel the losers, then deliver.
        case won(losers: [any Subscription])
    }

    @usableFromInline
    internal struct State {
        @usableFromInline var competitors: [Competitor]
        @usableFromInline var winner: Int?
        @usableFromInline var over = false
        /// Everything asked for before a winner: a competitor subscribing late is asked for it.
        @usableFromInline var demand = Subscribers.Demand.none

        @inlinable
        init(competitors: Int) {
            self.competitors = Array(repeating: .awaitingSubscription, count: competitors)
        }

        @inlinable
        mutating func claim(_ index: Int) -> Verdict {
            guard !over else { return .drop }
            if let winner { return winner == index ? .deliver : .drop }
            winner = index
            var losers: [any Subscription] = []
            for position in competitors.indices where position != index {
                if case .active(let subscription) = competitors[position] { losers.append(subscription) }
                competitors[position] = .done
            }
            return .won(losers: losers)
        }

        /// Ends the stream: the subscriptions still held, to cancel outside the lock.
        @inlinable
        mutating func terminate() -> [any Subscription] {
            over = true
            var held: [any Subscription] = []
            for competitor in competitors {
                if case .active(let subscription) = competitor { held.append(subscription) }
            }
            competitors = []
            return held
        }
    }

    @usableFromInline
    internal let state: Locked<State>

    @usableFromInline
    internal let handOff = ReleaseHandOff()

    /// Touched only by the winner's serial path, or by the side the hand-off names.
    @usableFromInline
    internal var downstream: Downstream?

    @inlinable
    internal init(downstream: Downstream, competitors: Int) {
        self.downstream = downstream
        state = Locked(State(competitors: competitors))
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
        let open = state.withLock { !$0.over && $0.winner == nil }
        guard open else { return }
        competitor.receive(subscriber: Side(self, index: index))
    }

    @inlinable
    internal func sideReceive(_ index: Int, subscription: any Subscription) {
        let demand = state.withLock { state -> Subscribers.Demand? in
            guard !state.over, index < state.competitors.count,
                case .awaitingSubscription = state.competitors[index]
            else { return nil }
            state.competitors[index] = .active(subscription)
            return state.demand
        }
        guard let demand else {
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
        guard handOff.enter("Amb"), let downstream else { return .none }
        let more = downstream.receive(input)
        if handOff.leave() {
            self.downstream = nil
            return .none
        }
        return more
    }

    @inlinable
    internal func sideReceive(_ index: Int, completion: Subscribers.Completion<Downstream.Failure>) {
        let losers = state.withLock { state -> [any Subscription]? in
            switch state.claim(index) {
            case .drop:
                return nil
            case .deliver:
                _ = state.terminate()
                return []
            case .won(let losers):
                _ = state.terminate()
                return losers
            }
        }
        guard let losers else { return }
        for loser in losers { loser.cancel() }
        handOff.stopFromSerialPath()
        let released = downstream
        downstream = nil
        released?.receive(completion: completion)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: Amb was asked for .none")
        let targets = state.withLock { state -> [any Subscription] in
            guard !state.over else { return [] }
            if let winner = state.winner {
                guard case .active(let subscription) = state.competitors[winner] else { return [] }
                return [subscription]
            }
            state.demand += demand
            var targets: [any Subscription] = []
            for competitor in state.competitors {
                if case .active(let subscription) = competitor { targets.append(subscription) }
            }
            return targets
        }
        for target in targets { target.request(demand) }
    }

    @inlinable
    internal func cancel() {
        let held = state.withLock { state -> [any Subscription]? in
            guard !state.over else { return nil }
            return state.terminate()
        }
        guard let held else { return }
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
