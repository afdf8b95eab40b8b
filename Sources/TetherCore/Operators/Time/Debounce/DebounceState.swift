/// The state machine behind ``Publishers/Debounce``: every method runs under the operator's lock,
/// calls nothing, and returns what the caller must do once the lock is released.
///
/// Each value replaces the pending one and starts a new quiet period, numbered by `generation`;
/// a timer whose number is no longer current has been overtaken and does nothing. When the
/// current timer fires, the pending value goes out if the downstream has demand, and is dropped
/// otherwise. A completion drops the pending value and silences every timer.
@usableFromInline
internal struct DebounceState<Output> {
    @usableFromInline var generation = 0
    @usableFromInline var pending: Output?
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var terminal = false

    @inlinable
    init() {}

    /// A value arrived: it becomes the pending one.
    /// - Returns: The number of the quiet period to schedule, or `nil` after the end.
    @inlinable
    mutating func receive(_ value: Output) -> Int? {
        guard !terminal else { return nil }
        generation += 1
        pending = value
        return generation
    }

    /// The quiet period numbered `generation` has elapsed.
    /// - Returns: The value to deliver, if the period is still current and demand allows.
    @inlinable
    mutating func fire(_ generation: Int) -> Output? {
        guard !terminal, generation == self.generation, let value = pending else { return nil }
        pending = nil
        guard demand > 0 else { return nil }
        demand -= 1
        return value
    }

    /// The downstream asked for more, or returned demand from a value.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard !terminal else { return }
        demand += more
    }

    /// The stream ends (upstream completion or cancel).
    /// - Returns: `false` when it had already ended.
    @inlinable
    mutating func end() -> Bool {
        guard !terminal else { return false }
        terminal = true
        generation += 1
        pending = nil
        return true
    }
}
