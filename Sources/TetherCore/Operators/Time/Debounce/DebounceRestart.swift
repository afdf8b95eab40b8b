/// What a value hands ``Publishers/Debounce``'s subscription out of its lock: the number of the
/// timer to start, and the cancellable of the timer that value replaces.
///
/// A plain struct, not a tuple of an optional existential inside an optional: a value of that
/// shape was copied and destroyed through the run time's tuple and enum value witnesses (with a
/// type lookup each time), several times a value.
@usableFromInline
internal struct DebounceRestart {
    /// The timer to start; `0` when the value is ignored and nothing starts.
    @usableFromInline let generation: Int
    /// The replaced timer's cancellable, which the caller cancels.
    @usableFromInline let previous: (any Cancellable)?

    @inlinable
    init(generation: Int, previous: consuming (any Cancellable)?) {
        self.generation = generation
        self.previous = previous
    }
}
