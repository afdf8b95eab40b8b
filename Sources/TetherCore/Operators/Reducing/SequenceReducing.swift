// Combine's eager fusions of the reducing, scanning and filtering operators on a sequence
// publisher: the whole sequence is at hand, so the result is computed at once and published by
// a one-value publisher (or a new sequence publisher), with the types Combine gives them.

extension Publishers.Sequence {
    /// Reduces the elements at once with `nextPartialResult`, starting from `initialResult`.
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: Combines the running result and the next element.
    /// - Returns: A publisher of the single reduced value.
    @inlinable
    public func reduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Elements.Element) -> T
    ) -> Result<T, Failure>.Publisher {
        .init(sequence.reduce(initialResult, nextPartialResult))
    }

    /// Reduces the elements at once with a throwing closure; a thrown error becomes the failure.
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: Combines the running result and the next element, or throws.
    /// - Returns: A publisher of the single reduced value, or of the thrown error.
    @inlinable
    public func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: (T, Elements.Element) throws -> T
    ) -> Result<T, any Error>.Publisher {
        .init(Result { try sequence.reduce(initialResult, nextPartialResult) })
    }

    /// Publishes whether any element satisfies `predicate`.
    /// - Parameter predicate: The test for each element.
    /// - Returns: A publisher of one Boolean.
    @inlinable
    public func contains(where predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(sequence.contains(where: predicate))
    }

    /// Publishes whether any element satisfies a throwing `predicate`; a thrown error becomes
    /// the failure.
    /// - Parameter predicate: The test for each element, which may throw.
    /// - Returns: A publisher of one Boolean, or of the thrown error.
    @inlinable
    public func tryContains(
        where predicate: (Elements.Element) throws -> Bool
    ) -> Result<Bool, any Error>.Publisher {
        .init(Result { try sequence.contains(where: predicate) })
    }

    /// Publishes whether every element satisfies `predicate` (`true` for an empty sequence).
    /// - Parameter predicate: The test for each element.
    /// - Returns: A publisher of one Boolean.
    @inlinable
    public func allSatisfy(_ predicate: (Elements.Element) -> Bool) -> Result<Bool, Failure>.Publisher {
        .init(sequence.allSatisfy(predicate))
    }

    /// Publishes whether every element satisfies a throwing `predicate`; a thrown error becomes
    /// the failure.
    /// - Parameter predicate: The test for each element, which may throw.
    /// - Returns: A publisher of one Boolean, or of the thrown error.
    @inlinable
    public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool) -> Result<Bool, any Error>.Publisher {
        .init(Result { try sequence.allSatisfy(predicate) })
    }

    /// Publishes all the elements as one array.
    /// - Returns: A publisher of one array.
    @inlinable
    public func collect() -> Result<[Elements.Element], Failure>.Publisher {
        .init(Array(sequence))
    }

    /// Publishes the running results of `nextPartialResult`, as a new sequence publisher.
    /// - Parameters:
    ///   - initialResult: The value to start from.
    ///   - nextPartialResult: Combines the running result and the next element.
    /// - Returns: A sequence publisher of every partial result.
    @inlinable
    public func scan<T>(
        _ initialResult: T, _ nextPartialResult: (T, Elements.Element) -> T
    ) -> Publishers.Sequence<[T], Failure> {
        var running = initialResult
        return .init(sequence: sequence.map { element in
            running = nextPartialResult(running, element)
            return running
        })
    }

    /// Changes the failure type the publisher declares; a sequence publisher never fails.
    /// - Parameter failureType: The failure type to declare.
    /// - Returns: The same elements, published with the new failure type.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.Sequence<Elements, E> {
        .init(sequence: sequence)
    }
}

extension Publishers.Sequence where Elements.Element: Equatable {
    /// Publishes whether the sequence contains `output`.
    /// - Parameter output: The element to look for.
    /// - Returns: A publisher of one Boolean.
    @inlinable
    public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
        .init(sequence.contains(output))
    }

    /// Drops each element equal to the one before it, as a new sequence publisher.
    /// - Returns: A sequence publisher without consecutive duplicates.
    @inlinable
    public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
        var kept: [Elements.Element] = []
        for element in sequence where kept.last != element {
            kept.append(element)
        }
        return .init(sequence: kept)
    }
}

extension Publishers.Sequence where Elements: Collection {
    /// Publishes the number of elements.
    /// - Returns: A publisher of one count.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        .init(sequence.count)
    }
}

extension Publishers.Sequence where Failure == Never {
    /// Publishes the minimum element by `areInIncreasingOrder`, or finishes empty.
    /// - Parameter areInIncreasingOrder: Whether the first element orders before the second.
    /// - Returns: A publisher of the minimum, or of nothing for an empty sequence.
    @inlinable
    public func min(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        .init(sequence.min(by: areInIncreasingOrder))
    }

    /// Publishes the maximum element by `areInIncreasingOrder`, or finishes empty.
    /// - Parameter areInIncreasingOrder: Whether the first element orders before the second.
    /// - Returns: A publisher of the maximum, or of nothing for an empty sequence.
    @inlinable
    public func max(
        by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool
    ) -> Optional<Elements.Element>.Publisher {
        .init(sequence.max(by: areInIncreasingOrder))
    }

    /// Publishes the first element that satisfies `predicate`, or finishes empty.
    /// - Parameter predicate: The test for each element.
    /// - Returns: A publisher of that element, or of nothing when none satisfies it.
    @inlinable
    public func first(where predicate: (Elements.Element) -> Bool) -> Optional<Elements.Element>.Publisher {
        .init(sequence.first(where: predicate))
    }

}

extension Publishers.Sequence {
    /// Replaces each `nil` element with `output`, as a new sequence publisher.
    /// - Parameter output: The element to use in place of `nil`.
    /// - Returns: A sequence publisher with no `nil` elements.
    @inlinable
    public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
    where Elements.Element == T? {
        .init(sequence: sequence.map { $0 ?? output })
    }
}
