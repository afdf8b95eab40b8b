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
