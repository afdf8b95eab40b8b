/// Where a subscription stands that serves one downstream from a first source and then, once
/// that one has ended, from a second: concatenation's prefix and suffix, a catch's upstream and
/// replacement. It holds the current source's subscription and the downstream demand the first
/// source has not met, which the second is asked for when it hands over its subscription.
///
/// Both operators share this much exactly. What ends the first source (a finish for
/// concatenation, a failure for a catch), what a value or a cancel does and when a signal is
/// ignored or traps are each operator's own, decided under its lock with what this state keeps.
@usableFromInline
internal struct SuccessionState {
    /// One of the two sources.
    @usableFromInline
    internal enum Source {
        case first
        case second
    }

    /// Which source is current. The current source's subscription is kept beside it, in
    /// ``current``, so that deciding on the link, on every value of a concatenation, copies no
    /// existential: an enum carrying the subscription was copied into each `switch`, the
    /// subscription retained and released through the run time's value witnesses.
    @usableFromInline
    internal enum Link {
        case awaitingFirst
        case first
        /// The first source ended and the second has not handed over its subscription yet.
        case awaitingSecond
        case second
        case over
    }

    @usableFromInline var status = Link.awaitingFirst

    /// The current source's subscription while ``status`` is `first` or `second`; an
    /// ``UnattachedSubscription`` otherwise, never an optional, which every source would copy and
    /// drop through `Optional`'s run-time value witnesses.
    @usableFromInline var current: any Subscription = UnattachedSubscription()

    /// The downstream demand the first source has not met yet; no longer counted once the second
    /// source is subscribed, as it is asked directly.
    @usableFromInline var unmet = Subscribers.Demand.none

    @inlinable
    init() {}

    /// `source` handed over `subscription`: the demand to ask it for (`.none` for the first,
    /// whose subscription goes downstream instead), or `nil` when it is not awaited and must be
    /// cancelled.
    @inlinable
    mutating func attach(_ subscription: any Subscription, from source: Source) -> Subscribers.Demand? {
        switch (status, source) {
        case (.awaitingFirst, .first):
            status = .first
            current = subscription
            return Subscribers.Demand.none
        case (.awaitingSecond, .second):
            status = .second
            current = subscription
            return unmet
        default:
            return nil
        }
    }

    /// The downstream asked for `demand`: the subscription to pass it to, the current source's,
    /// or a stand-in that ignores it when no source is current. Counted until the second source
    /// has subscribed.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> any Subscription {
        switch status {
        case .first, .awaitingSecond:
            unmet += demand
        case .second, .awaitingFirst, .over:
            break
        }
        return current
    }

    /// Counts one value of the first source against the unmet demand: `false`, counting
    /// nothing, when there is none.
    @inlinable
    mutating func meetOne() -> Bool {
        guard unmet > 0 else { return false }
        unmet -= 1
        return true
    }

    /// `source` completed: whether it was current, in which case the stream moves on to await
    /// the second source (when `handingOver`, for the first) or is over.
    @inlinable
    mutating func end(_ source: Source, handingOver: Bool) -> Bool {
        switch (status, source) {
        case (.first, .first):
            status = handingOver ? .awaitingSecond : .over
            current = UnattachedSubscription()
            return true
        case (.second, .second):
            status = .over
            current = UnattachedSubscription()
            return true
        default:
            return false
        }
    }

    /// Ends the stream from outside (a cancel): the link it was at, and the current source's
    /// subscription (a stand-in when none is current), moved out to be cancelled after the lock.
    @inlinable
    mutating func stop() -> (Link, any Subscription) {
        let previous = status
        status = .over
        return (previous, UnattachedSubscription.take(from: &current))
    }
}
