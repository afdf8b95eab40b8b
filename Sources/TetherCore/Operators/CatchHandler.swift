/// `catch`'s recovery: a handler that cannot fail; the replacement's completion goes downstream
/// as it is.
@usableFromInline
internal struct CatchHandler<UpstreamFailure: Error, Replacement: Publisher>: CatchRecovery {
    @usableFromInline let handler: (UpstreamFailure) -> Replacement

    @inlinable
    init(_ handler: @escaping (UpstreamFailure) -> Replacement) {
        self.handler = handler
    }

    @inlinable
    func replacement(for error: UpstreamFailure) throws(Replacement.Failure) -> Replacement {
        handler(error)
    }

    @inlinable
    static func downstreamCompletion(
        _ completion: Subscribers.Completion<Replacement.Failure>
    ) -> Subscribers.Completion<Replacement.Failure> {
        completion
    }
}
