// Combine's specialisations of its operators for `Optional.Publisher`: the value, or its absence,
// is known when the operator is applied, so each operator computes its result right away and
// returns another value publisher instead of a `Publishers` stage. A `nil` output stays `nil`
// (even for `count()`), except in `collect()` and `replaceEmpty(with:)`. `map`, `filter` and
// `compactMap` live with `Optional.Publisher` itself; `drop(while:)` and `output` with their
// generic forms.

extension Optional.Publisher {
    // MARK: Mapping

    /// Applies the closure once, right away, to the initial result and the output, if any.
    /// - Parameters:
    ///   - initialResult: The previous result passed to the closure.
    ///   - nextPartialResult: A closure that takes the previous result and the output and
    ///     returns the next result.
    /// - Returns: An `Optional.Publisher` of the accumulated result, or of `nil` when there is
    ///   no output.
    @inlinable
    public func scan<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
        map { nextPartialResult(initialResult, $0) }
    }

    // MARK: Filtering

    /// Returns this publisher: a single value has no duplicates to remove.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func removeDuplicates() -> Optional<Wrapped>.Publisher where Wrapped: Equatable {
        self
    }

    /// Returns this publisher: a single value has no duplicates to remove, and the closure never
    /// runs.
    /// - Parameter predicate: A closure that returns whether two elements are equivalent.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func removeDuplicates(by predicate: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Publishes the output, or the given element when there is none.
    /// - Parameter output: The element to publish when the optional is `nil`.
    /// - Returns: A `Just` of the output or of the replacement.
    @inlinable
    public func replaceEmpty(with output: Wrapped) -> Just<Wrapped> {
        Just<Wrapped>(self.output ?? output)
    }

    /// Returns this publisher: it never fails.
    /// - Parameter output: The element to publish in place of an error.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func replaceError(with output: Wrapped) -> Optional<Wrapped>.Publisher {
        self
    }

    // MARK: Reducing

    /// Publishes the output, if any, wrapped in an array; an empty array when there is none.
    /// - Returns: An `Optional.Publisher` of a one- or zero-element array.
    @inlinable
    public func collect() -> Optional<[Wrapped]>.Publisher {
        Optional<[Wrapped]>.Publisher(output.map { [$0] } ?? [])
    }

    /// Finishes each subscriber at once without publishing the output.
    /// - Returns: An `Empty` publisher that completes immediately.
    @inlinable
    public func ignoreOutput() -> Empty<Wrapped, Never> {
        Empty<Wrapped, Never>()
    }

    /// Applies the closure once, right away, to the initial result and the output, if any.
    /// - Parameters:
    ///   - initialResult: The value the closure receives with the output.
    ///   - nextPartialResult: A closure that takes the accumulated value and the output and
    ///     returns a new accumulated value.
    /// - Returns: An `Optional.Publisher` of the reduced value, or of `nil` when there is no
    ///   output.
    @inlinable
    public func reduce<T>(_ initialResult: T, _ nextPartialResult: (T, Wrapped) -> T) -> Optional<T>.Publisher {
        map { nextPartialResult(initialResult, $0) }
    }

    // MARK: Mathematical operations

    /// Publishes `1` when there is an output; publishes nothing when there is none.
    /// - Returns: An `Optional.Publisher` of `1`, or of `nil`.
    @inlinable
    public func count() -> Optional<Int>.Publisher {
        map { _ in 1 }
    }

    /// Returns this publisher: its one value, if any, is the maximum.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func max() -> Optional<Wrapped>.Publisher where Wrapped: Comparable {
        self
    }

    /// Returns this publisher: its one value, if any, is the maximum, and the closure never runs.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func max(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    /// Returns this publisher: its one value, if any, is the minimum.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func min() -> Optional<Wrapped>.Publisher where Wrapped: Comparable {
        self
    }

    /// Returns this publisher: its one value, if any, is the minimum, and the closure never runs.
    /// - Parameter areInIncreasingOrder: A closure that returns whether its first argument is
    ///   ordered before its second.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func min(by areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        self
    }

    // MARK: Matching criteria

    /// Publishes whether the output equals the given element; publishes nothing when there is
    /// no output.
    /// - Parameter output: The element to look for.
    /// - Returns: An `Optional.Publisher` of the comparison's result, or of `nil`.
    @inlinable
    public func contains(_ output: Wrapped) -> Optional<Bool>.Publisher where Wrapped: Equatable {
        map { $0 == output }
    }

    /// Tests the output, if any, right away and publishes whether it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it matches.
    /// - Returns: An `Optional.Publisher` of the closure's answer, or of `nil`.
    @inlinable
    public func contains(where predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        map(predicate)
    }

    /// Tests the output, if any, right away and publishes whether it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it satisfies
    ///   the condition.
    /// - Returns: An `Optional.Publisher` of the closure's answer, or of `nil`.
    @inlinable
    public func allSatisfy(_ predicate: (Wrapped) -> Bool) -> Optional<Bool>.Publisher {
        map(predicate)
    }

    // MARK: Sequence operations

    /// Publishes the output, if any, only if `count` is zero, decided right away.
    /// - Parameter count: The number of elements to omit; traps when negative. The default
    ///   is `1`.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Wrapped>.Publisher {
        precondition(count >= 0, "dropFirst(_:) needs a non-negative count, got \(count)")
        return count == 0 ? self : Optional<Wrapped>.Publisher(nil)
    }

    /// Publishes the output, if any, only if `maxLength` is positive, decided right away.
    /// - Parameter maxLength: The maximum number of elements to publish; traps when negative.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Wrapped>.Publisher {
        precondition(maxLength >= 0, "prefix(_:) needs a non-negative length, got \(maxLength)")
        return maxLength > 0 ? self : Optional<Wrapped>.Publisher(nil)
    }

    /// Tests the output, if any, right away and publishes it only if the closure returns `true`.
    /// - Parameter predicate: A closure that takes the output and returns whether to publish it.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func prefix(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        filter(predicate)
    }

    // MARK: Selecting elements

    /// Returns this publisher: its one value, if any, is the first.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func first() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Tests the output, if any, right away and publishes it only if it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it matches.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func first(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        filter(predicate)
    }

    /// Returns this publisher: its one value, if any, is the last.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func last() -> Optional<Wrapped>.Publisher {
        self
    }

    /// Tests the output, if any, right away and publishes it only if it satisfies the closure.
    /// - Parameter predicate: A closure that takes the output and returns whether it matches.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func last(where predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        filter(predicate)
    }

    // MARK: Handling errors

    /// Returns this publisher: it never fails, so there is nothing to retry.
    /// - Parameter times: The number of times to attempt to recreate the subscription.
    /// - Returns: This `Optional.Publisher`.
    @inlinable
    public func retry(_ times: Int) -> Optional<Wrapped>.Publisher {
        self
    }
}
