import TetherCore

// Operators beyond Combine's catalogue that turn a failure into something else, composed of
// Combine's own operators: they add no subscription type of their own.

extension Publisher {
    /// Publishes each value as `.success`, and a failure as one `.failure` value followed by a
    /// normal finish, so that the resulting publisher cannot fail.
    ///
    /// Composed as `map { .success($0) }` followed by `catch { Just(.failure($0)) }`.
    ///
    /// Demand: the downstream's demand goes to this publisher, one value for one result; the
    /// `.failure` value is delivered once the downstream has demand for it (at once if demand
    /// is left, otherwise at its next request). Failure type: `Never`. Values are delivered on
    /// the thread that delivers this publisher's values; the `.failure` value on the thread the
    /// failure arrives on, or on the downstream's thread when it requests it later.
    /// - Returns: A publisher of results that finishes when this publisher completes.
    @inlinable
    public func mapToResult()
        -> Publishers.Catch<
            Publishers.Map<Self, Result<Output, Failure>>, Just<Result<Output, Failure>>
        >
    {
        map { .success($0) }.catch { Just(.failure($0)) }
    }

    /// Turns a failure into a normal finish, so that the resulting publisher cannot fail.
    ///
    /// Composed as `catch { _ in Empty() }`: values and demand pass through unchanged, and a
    /// failure is replaced by a publisher that finishes at once.
    ///
    /// Failure type: `Never`. Values are delivered on the thread that delivers this publisher's
    /// values; the finish that replaces a failure, on the thread the failure arrives on.
    /// - Returns: A publisher of this publisher's values that finishes when it completes.
    @inlinable
    public func ignoreFailure() -> Publishers.Catch<Self, Empty<Output, Never>> {
        `catch` { _ in Empty() }
    }
}
