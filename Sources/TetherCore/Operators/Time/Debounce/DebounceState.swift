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
    /// The number of the latest value's timer while it is pending; `0` when none is (timers
    /// are numbered from `1`). Kept apart from ``clock``, so that no state or result is an
    /// optional tuple around an optional existential (see ``DebounceRestart``).
    @usableFromInline var timer = 0
    /// The pending timer's cancellable, once `schedule` returned it.
    @usableFromInline var clock: (any Cancellable)?
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
    /// - Returns: The number of the timer to start (`0` when the value is ignored) and the
    ///   previous timer's cancellable, which the caller cancels.
    @inlinable
    mutating func receive(_ value: Output) -> DebounceRestart {
        guard phase.isSubscribed() else { return DebounceRestart(generation: 0, previous: nil) }
        generation += 1
        current = value
        timer = generation
        return DebounceRestart(generation: generation, previous: clock.take())
    }

    /// Timer number `generation` is scheduled.
    /// - Returns: A cancellable the caller cancels: this one, when the timer already fired or was
    ///   overtaken, or the stream ended meanwhile.
    @inlinable
    mutating func started(_ generation: Int, clock: consuming any Cancellable) -> (any Cancellable)? {
        guard phase.isSubscribed(), timer == generation else { return clock }
        self.clock = clock
        return nil
    }

    /// Timer number `generation` fired.
    @inlinable
    mutating func fire(_ generation: Int) -> Firing {
        guard phase.isSubscribed(), timer == generation else { return .ignore }
        timer = 0
        guard demand > 0 else { return .due(nil, clock: clock.take()) }
        demand -= 1
        return .due(current, clock: clock.take())
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
        timer = 0
        return .some(clock.take())
    }

    /// The subscriber cancelled.
    /// - Returns: The upstream and the pending timer to cancel; `nil` when the stream was not
    ///   live (a cancel before the subscription, or after the end, does nothing).
    @inlinable
    mutating func cancel() -> (upstream: any Subscription, clock: (any Cancellable)?)? {
        guard case .subscribed(let upstream) = phase else { return nil }
        phase = .terminal
        timer = 0
        return (upstream, clock.take())
    }
}
