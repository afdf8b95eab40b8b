/// Where a ``FailoverSubscription`` stands, under its lock: the current source and the demand it
/// was asked for.
///
/// Not generic, so that the relay's control paths, run unspecialised behind an erased subscriber,
/// look up no metadata to reach it.
@usableFromInline
package struct FailoverState {
    /// The current source's status. Richer than ``UpstreamStatus`` by `switching`: between a
    /// failed source and the next one's subscription the stream is neither running nor over,
    /// and requests are still counted for the next source.
    @usableFromInline
    package enum Link {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// A source failed and the next one has not handed over its subscription yet.
        case switching
        case terminal
    }

    /// What the shell does with a source's subscription.
    @usableFromInline
    package enum Attach {
        /// Not awaited: cancel it.
        case refuse
        /// The first source's: hand the relay downstream.
        case first
        /// A later source's: ask it for `demand` if that is more than none.
        case next(ask: Subscribers.Demand)
    }

    /// What the shell does once the lock is released, after a cancel.
    @usableFromInline
    package enum Cancel {
        /// The stream had not started or was over.
        case nothing
        /// Stop the hand-off from outside, then cancel `source` if one was running.
        case stop(cancel: (any Subscription)?)
    }

    @usableFromInline package var link = Link.awaitingSubscription
    /// The demand the current source was asked for, in all.
    @usableFromInline package var outstanding = Subscribers.Demand.none

    @inlinable
    package init() {}

    /// A source handed over `subscription`.
    /// - Returns: `.first` for the first source's, `.next` with the demand the failed source left
    ///   unmet for a later one's, `.refuse` when none is awaited.
    @inlinable
    package mutating func attach(_ subscription: any Subscription) -> Attach {
        switch link {
        case .awaitingSubscription:
            link = .subscribed(subscription)
            return .first
        case .switching:
            link = .subscribed(subscription)
            return .next(ask: outstanding)
        case .subscribed, .terminal:
            return .refuse
        }
    }

    /// The serial path ends the stream with a completion; one before the first subscription is
    /// ignored, as Combine's operators do.
    /// - Returns: Whether this call ended the stream, so that the completion goes downstream.
    @inlinable
    package mutating func finish() -> Bool {
        switch link {
        case .awaitingSubscription, .terminal:
            return false
        case .subscribed, .switching:
            link = .terminal
            return true
        }
    }

    /// The current source failed and the next is on its way: its values `used` demand and the
    /// downstream returned `returned` for them.
    /// - Returns: `false` when the stream is not running and nothing must be subscribed.
    @inlinable
    package mutating func beginSwitch(used: Int, returned: Subscribers.Demand) -> Bool {
        guard case .subscribed = link else { return false }
        link = .switching
        outstanding = outstanding + returned - used
        return true
    }

    /// The downstream requested `demand`, counted for the current or next source.
    /// - Returns: The running source to pass it on to, if any.
    @inlinable
    package mutating func request(_ demand: Subscribers.Demand) -> (any Subscription)? {
        switch link {
        case .subscribed(let source):
            outstanding += demand
            return source
        case .switching:
            outstanding += demand
            return nil
        case .awaitingSubscription, .terminal:
            return nil
        }
    }

    /// The downstream cancelled: the stream is over, even before the first subscription.
    /// - Returns: `.stop` when a source was running or on its way, with the running one to cancel.
    @inlinable
    package mutating func cancel() -> Cancel {
        var previous = Link.terminal
        swap(&link, &previous)
        switch previous {
        case .awaitingSubscription, .terminal: return .nothing
        case .subscribed(let source): return .stop(cancel: source)
        case .switching: return .stop(cancel: nil)
        }
    }
}
