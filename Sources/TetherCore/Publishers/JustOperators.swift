// Combine's specialisations of its operators for `Just`: the one value is known when the operator
// is applied, so each operator computes its result right away and returns another value publisher
// (`Just`, `Optional.Publisher`, `Result.Publisher` or `Empty`) instead of a `Publishers` stage.
// `map`, `tryMap`, `filter`, `compactMap` and `setFailureType` live with `Just` itself; the
// sequence operators (`dropFirst`, `drop(while:)`, `prefix(_:)`, `output`, `append`) with their
// generic forms.

extension Just {
    // MARK: Mapping

    /// Declares the error type a publisher that cannot fail would fail with; the closure never
    /// runs.
    /// - Parameter transform: A closure that converts the publisher's error (`Never`) to a new
    ///   error type.
    /// - Returns: A `Result.Publisher` that publishes the output and can, in its type, fail with
    ///   `E`.
    @inlinable
    public func mapError<E: Error>(_ transform: (Never) -> E) -> Result<Output, E>.Publisher {
        Result<Output, E>.Publisher(output)
    }

    /// Applies the closure once, right away, to the initial result and the output.
    /// - Parameters:
    ///   - initialResult: The previous result passed to the closure.
    ///   - nextPartialResult: A closure that takes the previous result and the output and
    ///     returns the next result.
    /// - Returns: A `Result.Publisher` that publishes the one accumulated result.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Applies an error-throwing closure once, right away, to the initial result and the output.
    /// - Parameters:
    ///   - initialResult: The previous result passed to the closure.
    ///   - nextPartialResult: A closure that takes the previous result and the output and
    ///     returns the next result, or throws.
    /// - Returns: A `Result.Publisher` that publishes the accumulated result, or fails with the
    ///   thrown error.
    @inlinable
    public func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryMap { try nextPartialResult(initialResult, $0) }
    }

    // MARK: Filtering

    /// Returns this publisher: a single value has no duplicates to remove.
    /// - Returns: This `Just`.
    @inlinable
    public func removeDuplicates() -> Just<Output> where Output: Equatable {
        self
    }

    /// Returns this publisher: a single value has no duplicates to remove, and the closure never
    /// runs.
    /// - Parameter predicate: A closure that returns whether two elements are equivalent.
    /// - Returns: This `Just`.
    @inlinable
    public func removeDuplicates(by predicate: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Calls the error-throwing closure once, right away, with the output as both arguments, and
    /// publishes the output unless it throws.
    /// - Parameter predicate: A closure that returns whether two elements are equivalent, or
    ///   throws.
    /// - Returns: A `Result.Publisher` that publishes the output, or fails with the thrown error.
    @inlinable
    public func tryRemoveDuplicates(
        by predicate: (Output, Output) throws -> Bool
    ) -> Result<Output, any Error>.Publisher {
        Result<Output, Never>.Publisher(output).tryRemoveDuplicates(by: predicate)
    }

    /// Returns this publisher: it is never empty.
    /// - Parameter output: The element to publish if the upstream finished without one.
    /// - Returns: This `Just`.
    @inlinable
    public func replaceEmpty(with output: Output) -> Just<Output> {
        self
    }

    /// Returns this publisher: it never fails.
    /// - Parameter output: The element to publish in place of an error.
    /// - Returns: This `Just`.
    @inlinable
    public func replaceError(with output: Output) -> Just<Output> {
        self
    }

    // MARK: Reducing

    /// Publishes the output wrapped in an array.
    /// - Returns: A `Just` that publishes a one-element array.
    @inlinable
    public func collect() -> Just<[Output]> {
        Just<[Output]>([output])
    }

    /// Finishes each subscriber at once without publishing the output.
    /// - Returns: An `Empty` publisher that completes immediately.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Never> {
        Empty<Output, Never>()
    }

    /// Applies the closure once, right away, to the initial result and the output.
    /// - Parameters:
    ///   - initialResult: The value the closure receives with the output.
    ///   - nextPartialResult: A closure that takes the accumulated value and the output and
    ///     returns a new accumulated value.
    /// - Returns: A `Result.Publisher` that publishes the reduced value.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Output) -> T) -> Result<T, Never>.Publisher {
        Result<T, Never>.Publisher(nextPartialResult(initialResult, output))
    }

    /// Applies an error-throwing closure once, right away, to the initial result and the output.
    /// - Parameters:
    ///   - initialResult: The value the closure receives with the output.
    ///   - nextPartialResult: A closure that takes the accumulated value and the output and
    ///     returns a new accumulated value, or throws.
    /// - Returns: A `Result.Publisher` that publishes the reduced value, or fails with the thrown
    ///   error.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Output) throws -> T
    ) -> Result<T, any Error>.Publisher {
        tryMap { try nextPartialResult(initialResult, $0) }
    }

    // MARK: Mathematical operations

    /// Publishes the number of elements: always one.
    /// - Returns: A `Just` that publishes `1`.
    @inlinable
    public func count() -> Just<Int> {
        Just<Int>(1)
    }

    /// Returns this publisher: its one value is the maximum.
    /// - Returns: This `Just`.
    @inlinable
    public func max() -> Just<Output> where Output: Comparable {
        self
    }

    /// Returns this publisher: its one value is the maximum, and the closure never runs.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second.
    /// - Returns: This `Just`.
    @inlinable
    public func max(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    /// Returns this publisher: its one value is the minimum.
    /// - Returns: This `Just`.
    @inlinable
    public func min() -> Just<Output> where Output: Comparable {
        self
    }

    /// Returns this publisher: its one value is the minimum, and the closure never runs.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second.
    /// - Returns: This `Just`.
    @inlinable
    public func min(by areInIncreasingOrder: (Output, Output) -> Bool) -> Just<Output> {
        self
    }

    // MARK: Matching criteria

    /// Publishes whether the output equals the given element.
    /// - Parameter output: The element to look for.
    /// - Returns: A `Just` that publishes the comparison's result.
    @inlinable
    public func contains(_ output: Output) -> Just<Bool> where Output: Equatable {
        Just<Bool>(self.output == output)
    }

    /// Tests the output right away and publishes whether it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it matches.
    /// - Returns: A `Just` that publishes the closure's answer.
    @inlinable
    public func contains(where predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Tests the output right away with an error-throwing closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it matches, or
    ///   throws.
    /// - Returns: A `Result.Publisher` that publishes the closure's answer, or fails with the
    ///   thrown error.
    @inlinable
    public func tryContains(where predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        tryMap(predicate)
    }

    /// Tests the output right away and publishes whether it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it satisfies
    ///   the condition.
    /// - Returns: A `Just` that publishes the closure's answer.
    @inlinable
    public func allSatisfy(_ predicate: (Output) -> Bool) -> Just<Bool> {
        Just<Bool>(predicate(output))
    }

    /// Tests the output right away with an error-throwing closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it satisfies
    ///   the condition, or throws.
    /// - Returns: A `Result.Publisher` that publishes the closure's answer, or fails with the
    ///   thrown error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Output) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        tryMap(predicate)
    }

    // MARK: Sequence operations

    /// Publishes the elements of a sequence followed by the output, decided right away.
    /// - Parameter elements: A sequence of elements to publish before the output.
    /// - Returns: A sequence publisher of the elements and the output.
    @inlinable
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Sequence<[Output], Never>
    where Output == S.Element {
        // The standard library's `elements + [output]`, as Combine builds it (see
        // `Publishers.Sequence.prepend(_:)`).
        Publishers.Sequence(sequence: elements + [output])
    }

    /// Tests the output right away and publishes it only if the closure returns `true`.
    /// - Parameter predicate: A closure that takes the output and returns whether to publish it.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func prefix(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    // MARK: Selecting elements

    /// Returns this publisher: its one value is the first.
    /// - Returns: This `Just`.
    @inlinable
    public func first() -> Just<Output> {
        self
    }

    /// Tests the output right away and publishes it only if it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it matches.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func first(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    /// Returns this publisher: its one value is the last.
    /// - Returns: This `Just`.
    @inlinable
    public func last() -> Just<Output> {
        self
    }

    /// Tests the output right away and publishes it only if it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it matches.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        filter(predicate)
    }

    // MARK: Handling errors

    /// Returns this publisher: it never fails, so there is nothing to retry.
    /// - Parameter times: The number of times to attempt to recreate the subscription.
    /// - Returns: This `Just`.
    @inlinable
    public func retry(_ times: Int) -> Just<Output> {
        self
    }
}
