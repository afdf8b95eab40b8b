import TetherCore

/// The race behind ``Publishers/Amb`` and ``Publishers/AmbMany``, held under the subscription's
/// lock: which competitors have subscribed, who won, whether the stream is over, and the demand
/// asked for before a winner was known (each competitor is asked for all of it).
///
/// One `mutating func` per event, each returning what the subscription does after unlocking. Not
/// generic, so the per-value path builds no generic type when it runs unspecialised.
@usableFromInline
internal struct AmbState {
    /// One competitor, as the race sees it.
    @usableFromInline
    internal enum Competitor {
        case awaitingSubscription
        case active(any Subscription)
        case done
    }

    /// What a competitor's value or completion does.
    @usableFromInline
    internal enum Verdict {
        /// The race went to another competitor, or is over: drop the signal.
        case drop
        /// This competitor had already won: pass the signal on.
        case deliver
        /// This competitor wins with this signal: cancel the losers, then pass it on.
        case won(losers: [any Subscription])
    }

    @usableFromInline var competitors: [Competitor]
    @usableFromInline var winner: Int?
    @usableFromInline var over = false
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init(competitors: Int) {
        self.competitors = Array(repeating: .awaitingSubscription, count: competitors)
    }

    /// Whether a competitor should still be subscribed to.
    @inlinable
    var isOpen: Bool { !over && winner == nil }

    /// Competitor `index`'s subscription arrives.
    /// - Returns: The demand to ask it for at once (`.none` when there is none yet); `nil` when it
    ///   must be cancelled (a second subscription, a decided race, the end).
    @inlinable
    mutating func attach(_ subscription: any Subscription, at index: Int) -> Subscribers.Demand? {
        guard !over, index < competitors.count, case .awaitingSubscription = competitors[index] else { return nil }
        competitors[index] = .active(subscription)
        return demand
    }

    /// Competitor `index` sends a value: the first to do so wins.
    /// - Returns: What to do with the value.
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

    /// Competitor `index` completes: a completion wins the race like a value, and ends it.
    /// - Returns: The losers to cancel before the completion is passed on; `nil` to drop it.
    @inlinable
    mutating func complete(_ index: Int) -> [any Subscription]? {
        switch claim(index) {
        case .drop:
            return nil
        case .deliver:
            _ = terminate()
            return []
        case .won(let losers):
            _ = terminate()
            return losers
        }
    }

    /// The downstream requests `demand`.
    /// - Returns: The subscriptions to pass it to: the winner's, or before a winner every
    ///   competitor's so far (later ones are asked for the sum when they subscribe).
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> [any Subscription] {
        guard !over else { return [] }
        if let winner {
            guard case .active(let subscription) = competitors[winner] else { return [] }
            return [subscription]
        }
        self.demand += demand
        var targets: [any Subscription] = []
        for competitor in competitors {
            if case .active(let subscription) = competitor { targets.append(subscription) }
        }
        return targets
    }

    /// The downstream cancels.
    /// - Returns: The subscriptions to cancel; `nil` when the stream was already over.
    @inlinable
    mutating func cancel() -> [any Subscription]? {
        guard !over else { return nil }
        return terminate()
    }

    /// Ends the race.
    /// - Returns: Every competitor's subscription still held.
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
