/// How a ``CatchSubscription`` recovers from its upstream's failure: ``CatchHandler`` for
/// `catch`, ``TryCatchHandler`` for `tryCatch`.
@usableFromInline
internal protocol CatchRecovery {
    /// The upstream's failure, which the handler takes.
    associatedtype UpstreamFailure: Error
    /// The publisher the handler returns.
    associatedtype Replacement: Publisher
    /// The downstream's failure: the replacement's, or any error for a handler that can throw.
    associatedtype Failure: Error

    /// Runs the handler on the upstream's `error`; what it throws is the downstream's failure.
    func replacement(for error: UpstreamFailure) throws(Failure) -> Replacement

    /// The replacement's completion as the downstream receives it.
    static func downstreamCompletion(
        _ completion: Subscribers.Completion<Replacement.Failure>
    ) -> Subscribers.Completion<Failure>
}
