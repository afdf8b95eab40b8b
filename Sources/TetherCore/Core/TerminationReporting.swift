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
