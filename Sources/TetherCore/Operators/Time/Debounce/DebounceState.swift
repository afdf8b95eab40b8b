/// The state machine behind ``Publishers/Debounce``: every method runs under the operator's lock
/// and calls nothing.
///
/// Each value starts a timer (a repeating one, as in Combine, cancelled once it has fired) that
/// carries the value's number; only the timer of the latest value may deliver, and only once, so
/// a scheduler whose cancellables do nothing still delivers each quiet period's value once.
/// Events before the subscription, and a cancel before it, are ignored, as Combine does.
@usableFromInline
internal struct DebounceState<Output> {
    /// What a timer found when it fired.
    @usableFromInline
    internal enum Firing {
        /// Nothing: the timer was overtaken, had already fired, or the stream ended.
        case ignore
        /// Cancel the timer, and deliver `value` when there is one (there was demand for it).
        case due(Output?, clock: (any Cancellable)?)
    }

    @usableFromInline var phase = UpstreamStatus.awaitingSubscription
    @usableFromInline var generation = 0
    /// The latest value; Combine keeps it after delivering it (its mirror shows it).
    @usableFromInline var current: Output?
    /// The latest value's timer: its number, and its cancellable once `schedule` returned it.
    @usableFromInline var timer: (generation: Int, clock: (any Cancellable)?)?
    @usableFromInline var demand = Subscribers.Demand.none

    @inlinable
    init() {}

    /// The upstream's subscription arrived.
    /// - Returns: `false` when it must be cancelled (a second one, or one after the end).
    @inlinable
    mutating func subscribe(_ subscription: any Subscription) -> Bool {
        phase.attach(subscription)
    }

    /// A value arrived.
    /// - Returns: `nil` when it is ignored; otherwise the number of the timer to start and the
    ///   previous timer's cancellable, which the caller cancels.
    @inlinable
    mutating func receive(_ value: Output) -> (generation: Int, previous: (any Cancellable)?)? {
        guard phase.isSubscribed() else { return nil }
        generation += 1
        current = value
        let previous = timer?.clock
        timer = (generation, nil)
        return (generation, previous)
    }

    /// Timer number `generation` is scheduled.
    /// - Returns: A cancellable the caller cancels: this one, when the timer already fired or was
    ///   overtaken, or the stream ended meanwhile.
    @inlinable
    mutating func started(_ generation: Int, clock: any Cancellable) -> (any Cancellable)? {
        guard phase.isSubscribed(), let timer, timer.generation == generation else { return clock }
        self.timer = (generation, clock)
        return nil
    }

    /// Timer number `generation` fired.
    @inlinable
    mutating func fire(_ generation: Int) -> Firing {
        guard phase.isSubscribed(), let timer, timer.generation == generation else { return .ignore }
        self.timer = nil
        guard demand > 0 else { return .due(nil, clock: timer.clock) }
        demand -= 1
        return .due(current, clock: timer.clock)
    }

    /// The subscriber requested `more`, or returned it from a value.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard phase.isSubscribed() else { return }
        demand += more
    }

    /// The upstream completed.
    /// - Returns: `nil` when the completion is ignored; otherwise the pending timer's cancellable
    ///   (if any) inside `.some`.
    @inlinable
    mutating func complete() -> (any Cancellable)?? {
        guard phase.isSubscribed() else { return nil }
        phase = .terminal
        defer { timer = nil }
        return .some(timer?.clock)
    }

    /// The subscriber cancelled.
    /// - Returns: The upstream and the pending timer to cancel; `nil` when the stream was not
    ///   live (a cancel before the subscription, or after the end, does nothing).
    @inlinable
    mutating func cancel() -> (upstream: any Subscription, clock: (any Cancellable)?)? {
        guard case .subscribed(let upstream) = phase else { return nil }
        phase = .terminal
        defer { timer = nil }
        return (upstream, timer?.clock)
    }
}
