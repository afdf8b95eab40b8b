/// The state machine behind ``Publishers/Timeout``: every method runs under the operator's lock
/// and calls nothing.
///
/// Each timer carries the number of the quiet period it guards; the subscription starts period
/// 1 and every value starts the next, so a timer that fires for an older period was overtaken
/// and does nothing. The first of a current timer, an upstream completion and a cancel to
/// arrive ends the stream.
@usableFromInline
internal struct TimeoutState {
    @usableFromInline var generation = 0
    @usableFromInline var terminal = false

    @inlinable
    init() {}

    /// A quiet period starts (the subscription arrived, or a value did).
    /// - Returns: Its number, for the timer; `nil` after the end.
    @inlinable
    mutating func restart() -> Int? {
        guard !terminal else { return nil }
        generation += 1
        return generation
    }

    /// The timer for period `generation` fired.
    /// - Returns: `true` when it timed the stream out: the caller ends it.
    @inlinable
    mutating func fire(_ generation: Int) -> Bool {
        guard !terminal, generation == self.generation else { return false }
        terminal = true
        return true
    }

    /// The upstream completed or the downstream cancelled.
    /// - Returns: `false` when the stream had already ended.
    @inlinable
    mutating func end() -> Bool {
        guard !terminal else { return false }
        terminal = true
        return true
    }
}
