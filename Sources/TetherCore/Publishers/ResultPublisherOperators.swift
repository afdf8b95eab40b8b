// Combine's specialisations of its operators for `Result.Publisher`: the result is known when the
// operator is applied, so each operator computes its result right away and returns another
// `Result.Publisher` (or `Empty`) instead of a `Publishers` stage. A failure passes through every
// operator unchanged (the `try` forms erase its type to `any Error`), except `replaceError(with:)`
// and `ignoreOutput()`. `map`, `tryMap` and `setFailureType` live with `Result.Publisher` itself,
// `first()` with its generic form.

extension Result.Publisher {
    // MARK: Mapping

    /// Transforms the failure, if any, right away; a success passes through unchanged.
    /// - Parameter transform: A closure that takes the failure and returns a new error.
    /// - Returns: A `Result.Publisher` of the same success value or of the new error.
    @inlinable
    public func mapError<E: Error>(_ transform: (Failure) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(result.mapError(transform))
    }

    /// Applies the closure once, right away, to the initial result and the success value, if any.
    /// - Parameters:
    ///   - initialResult: The previous result passed to the closure.
    ///   - nextPartialResult: A closure that takes the previous result and the success value and
    ///     returns the next result.
    /// - Returns: A `Result.Publisher` of the accumulated result, or of the failure.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        map { nextPartialResult(initialResult, $0) }
    }

    /// Applies an error-throwing closure once, right away, to the initial result and the success
    /// value, if any.
    /// - Parameters:
    ///   - initialResult: The previous result passed to the closure.
    ///   - nextPartialResult: A closure that takes the previous result and the success value and
    ///     returns the next result, or throws.
    /// - Returns: A `Result.Publisher` of the accumulated result, or failing with the original
    ///   failure or the thrown error.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryMap { try nextPartialResult(initialResult, $0) }
    }

    // MARK: Filtering

    /// Returns this publisher: a single value has no duplicates to remove.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func removeDuplicates() -> Result<Output, Failure>.Publisher where Output: Equatable {
        self
    }

    /// Returns this publisher: a single value has no duplicates to remove, and the closure never
    /// runs.
    /// - Parameter predicate: A closure that returns whether two elements are equivalent.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Calls the error-throwing closure once, right away, with the success value, if any, as
    /// both arguments, and publishes the value unless it throws.
    /// - Parameter predicate: A closure that returns whether two elements are equivalent, or
    ///   throws.
    /// - Returns: A `Result.Publisher` of the success value, or failing with the original failure
    ///   or the thrown error.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        tryComparingValueWithItself(predicate)
    }

    /// Returns this publisher: a `Result` is never empty.
    /// - Parameter output: The element to publish if the upstream finished without one.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func replaceEmpty(with output: Output) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Publishes the success value, or the given element in place of the failure.
    /// - Parameter output: The element to publish in place of the failure.
    /// - Returns: A `Result.Publisher` that cannot fail.
    @inlinable
    public func replaceError(with output: Output) -> Result<Output, Never>.Publisher {
        switch result {
        case .success(let value): return Result<Output, Never>.Publisher(value)
        case .failure: return Result<Output, Never>.Publisher(output)
        }
    }

    // MARK: Reducing

    /// Publishes the success value, if any, wrapped in an array.
    /// - Returns: A `Result.Publisher` of a one-element array, or of the failure.
    @inlinable
    public func collect() -> Result<[Output], Failure>.Publisher {
        map { [$0] }
    }

    /// Finishes each subscriber at once without publishing anything.
    ///
    /// As in Combine, the subscriber receives `.finished` even when the result is a failure.
    /// - Returns: An `Empty` publisher that completes immediately.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty<Output, Failure>()
    }

    /// Applies the closure once, right away, to the initial result and the success value, if any.
    /// - Parameters:
    ///   - initialResult: The value the closure receives with the success value.
    ///   - nextPartialResult: A closure that takes the accumulated value and the success value
    ///     and returns a new accumulated value.
    /// - Returns: A `Result.Publisher` of the reduced value, or of the failure.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Failure>.Publisher {
        map { nextPartialResult(initialResult, $0) }
    }

    /// Applies an error-throwing closure once, right away, to the initial result and the success
    /// value, if any.
    /// - Parameters:
    ///   - initialResult: The value the closure receives with the success value.
    ///   - nextPartialResult: A closure that takes the accumulated value and the success value
    ///     and returns a new accumulated value, or throws.
    /// - Returns: A `Result.Publisher` of the reduced value, or failing with the original failure
    ///   or the thrown error.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryMap { try nextPartialResult(initialResult, $0) }
    }

    // MARK: Mathematical operations

    /// Publishes `1` for a success; a failure passes through.
    /// - Returns: A `Result.Publisher` of `1`, or of the failure.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        map { _ in 1 }
    }

    /// Returns this publisher: its one value, if any, is the maximum.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func max() -> Result<Output, Failure>.Publisher where Output: Comparable {
        self
    }

    /// Returns this publisher: its one value, if any, is the maximum, and the closure never runs.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Calls the error-throwing closure once, right away, with the success value, if any, as
    /// both arguments, and publishes the value unless it throws.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second, or throws.
    /// - Returns: A `Result.Publisher` of the success value, or failing with the original failure
    ///   or the thrown error.
    @inlinable
    public func tryMax(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        tryComparingValueWithItself(areInIncreasingOrder)
    }

    /// Returns this publisher: its one value, if any, is the minimum.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func min() -> Result<Output, Failure>.Publisher where Output: Comparable {
        self
    }

    /// Returns this publisher: its one value, if any, is the minimum, and the closure never runs.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Result<Output, Failure>.Publisher {
        self
    }

    /// Calls the error-throwing closure once, right away, with the success value, if any, as
    /// both arguments, and publishes the value unless it throws.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second, or throws.
    /// - Returns: A `Result.Publisher` of the success value, or failing with the original failure
    ///   or the thrown error.
    @inlinable
    public func tryMin(
        by areInIncreasingOrder: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        tryComparingValueWithItself(areInIncreasingOrder)
    }

    // MARK: Matching criteria

    /// Publishes whether the success value equals the given element; a failure passes through.
    /// - Parameter output: The element to look for.
    /// - Returns: A `Result.Publisher` of the comparison's result, or of the failure.
    @inlinable
    public func contains(_ output: Output) -> Result<Bool, Failure>.Publisher where Output: Equatable {
        map { $0 == output }
    }

    /// Tests the success value, if any, right away and publishes whether it satisfies the closure.
    /// - Parameter predicate: A closure that takes the success value and returns whether it
    ///   matches.
    /// - Returns: A `Result.Publisher` of the closure's answer, or of the failure.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        map(predicate)
    }

    /// Tests the success value, if any, right away with an error-throwing closure.
    /// - Parameter predicate: A closure that takes the success value and returns whether it
    ///   matches, or throws.
    /// - Returns: A `Result.Publisher` of the closure's answer, or failing with the original
    ///   failure or the thrown error.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        tryMap(predicate)
    }

    /// Tests the success value, if any, right away and publishes whether it satisfies the closure.
    /// - Parameter predicate: A closure that takes the success value and returns whether it
    ///   satisfies the condition.
    /// - Returns: A `Result.Publisher` of the closure's answer, or of the failure.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Result<Bool, Failure>.Publisher {
        map(predicate)
    }

    /// Tests the success value, if any, right away with an error-throwing closure.
    /// - Parameter predicate: A closure that takes the success value and returns whether it
    ///   satisfies the condition, or throws.
    /// - Returns: A `Result.Publisher` of the closure's answer, or failing with the original
    ///   failure or the thrown error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        tryMap(predicate)
    }

    // MARK: Selecting elements

    /// Returns this publisher: its one value, if any, is the last.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func last() -> Result<Output, Failure>.Publisher {
        self
    }

    // MARK: Handling errors

    /// Returns this publisher: each subscription would deliver the same result again.
    /// - Parameter times: The number of times to attempt to recreate the subscription.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func retry(_ times: Int) -> Result<Output, Failure>.Publisher {
        self
    }

    // MARK: Support

    /// Runs a throwing comparison of the success value with itself, as Combine's `tryMin`,
    /// `tryMax` and `tryRemoveDuplicates` do for their one value, keeping the value unless the
    /// comparison throws.
    @inlinable
    internal func tryComparingValueWithItself(
        _ comparison: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        tryMap { value in
            _ = try comparison(value, value)
            return value
        }
    }
}
