/// `tryCatch`'s recovery: a handler whose thrown error fails the downstream; the replacement's
/// failure reaches the downstream as `any Error`.
@usableFromInline
internal struct TryCatchHandler<UpstreamFailure: Error, Replacement: Publisher>: CatchRecovery {
    @usableFromInline let handler: (UpstreamFailure) throws -> Replacement

    @inlinable
    init(_ handler: @escaping (UpstreamFailure) throws -> Replacement) {
        self.handler = handler
    }

    @inlinable
    func replacement(for error: UpstreamFailure) throws(any Error) -> Replacement {
        try handler(error)
    }

    @inlinable
    static func downstreamCompletion(
        _ completion: Subscribers.Completion<Replacement.Failure>
    ) -> Subscribers.Completion<any Error> {
        completion.eraseError()
    }
}
