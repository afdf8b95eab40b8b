/// Tells interested containers, once, that a subscriber has finished: its upstream completed
/// or it was cancelled.
///
/// This is how a ``CancellableBag`` or a ``Lifetime`` drops the entry of a subscription that
/// ended on its own: `store(in:)` finds the subscriber behind the ``AnyCancellable`` and, when
/// it is a ``TerminationReporting`` object, asks to hear of its end. Handlers run after the
/// subscriber's lock is released, on the thread that ended it.
@usableFromInline
package struct TerminationSignal: ~Copyable, Sendable {
    @usableFromInline
    internal let state = Locked(TerminationHandlers.running([]))

    @inlinable
    package init() {}

    /// Marks the end and runs the handlers registered so far; later calls do nothing.
    @inlinable
    package func fire() {
        for handler in state.withLock({ $0.end() }) { handler() }
    }

    /// Registers `handler` to run at the end.
    /// - Returns: `false`, without keeping the handler, when the end already happened.
    package func observe(_ handler: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { $0.observe(handler) }
    }
}

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

/// A subscriber that can say when it has finished; see ``TerminationSignal``.
package protocol TerminationReporting: AnyObject {
    /// Registers `handler` to run once the subscriber has completed or been cancelled.
    /// - Returns: `false` when that already happened; the handler is then not kept.
    func observeTermination(_ handler: @escaping @Sendable () -> Void) -> Bool
}

extension AnyCancellable {
    /// The subscriber this cancellable cancels, when it reports its termination.
    package var terminationReporter: (any TerminationReporting)? {
        lock.withLock { _ -> (any TerminationReporting)? in
            guard case .object(let object) = canceller else { return nil }
            return object as? any TerminationReporting
        }
    }
}
