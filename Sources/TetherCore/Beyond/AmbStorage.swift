/// The subscription of ``Publishers/Amb`` and ``Publishers/AmbMany``: races competitors indexed by
/// position, mirrors the first to send a value or complete, and cancels the rest.
///
/// State lives in one `Locked`; no call out is made under the lock. Only the winner's signals
/// reach the downstream, serially by contract; a loser's late signals are dropped.
@usableFromInline
internal final class AmbStorage<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal enum Competitor {
        case awaitingSubscription
        case active(any Subscription)
        case done
    }

    @usableFromInline
    internal struct State {
        /// `nil` once completed or cancelled.
        @usableFromInline var downstream: Downstream?
        @usableFromInline var competitors: [Competitor]
        @usableFromInline var winner: Int?
        /// Everything asked for before a winner: a competitor subscribing late is asked for it.
        @usableFromInline var demand = Subscribers.Demand.none

        @inlinable
        init(downstream: Downstream, competitors: Int) {
            self.downstream = downstream
            self.competitors = Array(repeating: .awaitingSubscription, count: competitors)
        }

        /// Competitor `index` sent a signal: whether it is (now) the winner, and the losers to
        /// cancel if it just won.
        @inlinable
        mutating func claim(_ index: Int) -> (won: Bool, losers: [any Subscription]) {
            guard downstream != nil else { return (false, []) }
            if let winner { return (winner == index, []) }
            winner = index
            var losers: [any Subscription] = []
            for position in competitors.indices where position != index {
                if case .active(let subscription) = competitors[position] { losers.append(subscription) }
                competitors[position] = .done
            }
            return (true, losers)
        }

        /// Ends the stream: the downstream to complete and the subscriptions to cancel.
        @inlinable
        mutating func terminate() -> (Downstream?, [any Subscription]) {
            var held: [any Subscription] = []
            for subscription in competitors {
                if case .active(let subscription) = subscription { held.append(subscription) }
            }
            defer {
                downstream = nil
                competitors = []
            }
            return (downstream, held)
        }
    }

    @usableFromInline
    internal let state: Locked<State>

    @inlinable
    internal init(downstream: Downstream, competitors: Int) {
        state = Locked(State(downstream: downstream, competitors: competitors))
        SubscriptionLedger.enter(self)
    }

    deinit {
        SubscriptionLedger.leave(self)
    }

    /// Hands the subscription downstream; the competitors are subscribed afterwards, so that the
    /// demand it requests at once reaches each of them.
    @inlinable
    internal func start() {
        let downstream = state.withLock { $0.downstream }
        downstream?.receive(subscription: self)
    }

    /// Subscribes to competitor `index`, unless the race is already decided or over.
    @inlinable
    internal func subscribe<Competitor: Publisher>(_ competitor: Competitor, at index: Int)
    where Competitor.Output == Downstream.Input, Competitor.Failure == Downstream.Failure {
        let open = state.withLock { $0.downstream != nil && $0.winner == nil }
        guard open else { return }
        competitor.receive(subscriber: AmbSide(storage: self, index: index))
    }

    @inlinable
    internal func attach(_ index: Int, _ subscription: any Subscription) {
        let demand = state.withLock { state -> Subscribers.Demand? in
            guard state.downstream != nil, index < state.competitors.count,
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
    internal func receive(_ index: Int, _ input: Downstream.Input) -> Subscribers.Demand {
        let (downstream, losers) = state.withLock { state -> (Downstream?, [any Subscription]) in
            let (won, losers) = state.claim(index)
            return (won ? state.downstream : nil, losers)
        }
        for loser in losers { loser.cancel() }
        return downstream?.receive(input) ?? .none
    }

    @inlinable
    internal func complete(_ index: Int, _ completion: Subscribers.Completion<Downstream.Failure>) {
        let (downstream, cancelled) = state.withLock { state -> (Downstream?, [any Subscription]) in
            let (won, losers) = state.claim(index)
            guard won else { return (nil, []) }
            state.competitors[index] = .done
            let (downstream, _) = state.terminate()
            return (downstream, losers)
        }
        for loser in cancelled { loser.cancel() }
        downstream?.receive(completion: completion)
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: Amb was asked for .none")
        let targets = state.withLock { state -> [any Subscription] in
            guard state.downstream != nil else { return [] }
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
        let (_, held) = state.withLock { $0.terminate() }
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

/// What an amb hands each competitor: a value-type relay that tags signals with its position.
@usableFromInline
internal struct AmbSide<Downstream: Subscriber>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Input = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let storage: AmbStorage<Downstream>
    @usableFromInline let index: Int
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(storage: AmbStorage<Downstream>, index: Int) {
        self.storage = storage
        self.index = index
    }

    @inlinable
    func receive(subscription: any Subscription) {
        storage.attach(index, subscription)
    }

    @inlinable
    func receive(_ input: Downstream.Input) -> Subscribers.Demand {
        storage.receive(index, input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        storage.complete(index, completion)
    }

    @usableFromInline var description: String { "Amb" }
}
