/// The handlers a ``TerminationSignal`` keeps, as a value: a subscriber that already holds a lock
/// keeps them beside its own state under it (as `Sink` does) rather than paying for a second lock.
@usableFromInline
package enum TerminationHandlers: Sendable {
    case running([@Sendable () -> Void])
    case ended

    /// Marks the end and returns the handlers registered so far, to run once the lock is released;
    /// later calls return none.
    @inlinable
    package mutating func end() -> [@Sendable () -> Void] {
        defer { self = .ended }
        if case .running(let handlers) = self { return handlers }
        return []
    }

    /// Registers `handler` to run at the end.
    /// - Returns: `false`, without keeping the handler, when the end already happened.
    package mutating func observe(_ handler: @escaping @Sendable () -> Void) -> Bool {
        guard case .running(var handlers) = self else { return false }
        // Ended for the moment, so that the array is referenced once and grows in place.
        self = .ended
        handlers.append(handler)
        self = .running(handlers)
        return true
    }
}
