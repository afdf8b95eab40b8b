/// The state machine behind ``Publishers/Throttle``: every method runs under the operator's lock
/// and calls nothing.
///
/// Combine's throttle: a value that arrives while the subscriber has demand and nothing is
/// scheduled is taken (one unit of demand) and scheduled for the later of now and the last
/// emission plus the interval; while it waits, a newer value replaces it when `latest`, and is
/// dropped otherwise. A value without demand is dropped. The completion rides with a scheduled
/// value, or is scheduled on its own. A cancel before the subscription ends the stream.
@usableFromInline
internal struct ThrottleState<Output, Failure: Error, Time: Strideable> {
    /// What to do with an arriving value.
    @usableFromInline
    internal enum Arrival {
        /// Nothing to schedule.
        case none
        /// Schedule an emission now.
        case emitNow
        /// Schedule an emission at this time.
        case emit(at: Time)
    }

    @usableFromInline let interval: Time.Stride
    @usableFromInline let latest: Bool
    @usableFromInline var phase = ScheduledLink.awaitingSubscription
    @usableFromInline var lastEmission: Time?
    @usableFromInline var pendingValue: Output?
    @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init(interval: Time.Stride, latest: Bool) {
        self.interval = interval
        self.latest = latest
    }

    @inlinable
    var hasScheduledEmission: Bool { pendingValue != nil || pendingCompletion != nil }

    /// The upstream's subscription arrived.
    /// - Returns: `false` when it must be cancelled (a second one, or one after a cancel).
    @inlinable
    mutating func subscribe(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = phase else { return false }
        phase = .subscribed(subscription)
        return true
    }

    /// A value arrived at `now`.
    @inlinable
    mutating func receive(_ value: Output, now: Time) -> Arrival {
        guard phase.isSubscribed(), demand > 0 else { return .none }
        if hasScheduledEmission {
            if latest { pendingValue = value }
            return .none
        }
        demand -= 1
        pendingValue = value
        guard let earliest = lastEmission?.advanced(by: interval), earliest > now else { return .emitNow }
        return .emit(at: earliest)
    }

    /// The upstream completed.
    /// - Returns: Whether the caller schedules an emission for it.
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<Failure>) -> Bool {
        guard case .subscribed(let upstream) = phase else { return false }
        phase = .completing(upstream)
        guard pendingCompletion == nil else { return false }
        defer { pendingCompletion = completion }
        return !hasScheduledEmission
    }

    /// Whether the scheduled emission will deliver a value and no completion: the caller then
    /// reads the clock for ``emit(now:)``, as Combine does.
    @inlinable
    var emitsOnlyAValue: Bool {
        switch phase {
        case .subscribed, .completing: return pendingValue != nil && pendingCompletion == nil
        case .awaitingSubscription, .terminal: return false
        }
    }

    /// A scheduled emission ran at `now` (`nil` when ``emitsOnlyAValue`` was false).
    /// - Returns: What to deliver; `nil` when the stream ended meanwhile.
    @inlinable
    mutating func emit(now: Time?) -> (value: Output?, completion: Subscribers.Completion<Failure>?)? {
        switch phase {
        case .subscribed, .completing: break
        case .awaitingSubscription, .terminal: return nil
        }
        if let now, pendingValue != nil, pendingCompletion == nil {
            lastEmission = now
        }
        defer {
            pendingValue = nil
            pendingCompletion = nil
        }
        if pendingCompletion != nil {
            phase = .terminal
        }
        return (pendingValue, pendingCompletion)
    }

    /// The subscriber requested `more` (or returned it from a value).
    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard phase.isSubscribed() else { return }
        demand += more
    }

    /// The subscriber cancelled; a cancel before the subscription ends the stream too.
    /// - Returns: The upstream to cancel, if there was one.
    @inlinable
    mutating func cancel() -> (any Subscription)? {
        defer {
            phase = .terminal
            pendingValue = nil
            pendingCompletion = nil
        }
        switch phase {
        case .subscribed(let upstream), .completing(let upstream): return upstream
        case .awaitingSubscription, .terminal: return nil
        }
    }
}
