// Combine's eager fusions on a sequence publisher (reducing, scanning, filtering and selecting):
// the whole sequence is at hand, so the result is computed at once, when the operator is called,
// and published by a one-value publisher, an empty one or a new sequence publisher, with the
// types Combine gives them. The fusions of `dropFirst`, `prefix(_:)`, `last()`, `last(where:)`,
// `append` and `prepend` live beside those operators.

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
        return .init(
            sequence: sequence.map { element in
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

    /// Skips, right away, the leading elements that satisfy `predicate`, as a new sequence
    /// publisher of the rest.
    ///
    /// The predicate runs now, once, up to and including the first element it rejects; the rest
    /// of the sequence is published lazily, as demanded.
    /// - Parameter predicate: Whether to drop an element; the first `false` ends the dropping.
    /// - Returns: A sequence publisher starting at the first rejected element, with the same
    ///   failure type.
    @inlinable
    public func drop(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<DropWhileSequence<Elements>, Failure> {
        .init(sequence: sequence.drop(while: predicate))
    }

    /// Keeps, right away, the leading elements that satisfy `predicate`, as a new sequence
    /// publisher of an array.
    ///
    /// The predicate runs now, once, up to and including the first element it rejects.
    /// - Parameter predicate: Whether to keep an element; the first `false` ends the prefix.
    /// - Returns: A sequence publisher of the prefix, with the same failure type.
    @inlinable
    public func prefix(
        while predicate: (Elements.Element) -> Bool
    ) -> Publishers.Sequence<[Elements.Element], Failure> {
        .init(sequence: sequence.prefix(while: predicate))
    }

    /// Publishes no elements and finishes, decided right away: the sequence is never iterated.
    /// - Returns: An `Empty` that completes immediately, with the same output and failure types.
    @inlinable
    public func ignoreOutput() -> Empty<Output, Failure> {
        Empty()
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

    /// Publishes, as a new sequence publisher, the elements at the indices in `range`.
    ///
    /// The slice is taken now, once, with the collection's own subscript, as Combine takes it:
    /// a range the collection does not have is the collection's to reject (an array traps).
    /// - Parameter range: The indices of the collection whose elements to publish.
    /// - Returns: A sequence publisher of those elements, with the same failure type.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        .init(sequence: elements(in: range))
    }

    /// The elements at the indices of `range`, for both `output(in:)` forms.
    @inlinable
    internal func elements(in range: Range<Elements.Index>) -> [Output] {
        Array(sequence[range])
    }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
    /// Publishes the first element, or finishes empty; decided now, once.
    /// - Returns: A publisher of the first element, or of nothing for an empty collection.
    @inlinable
    public func first() -> Optional<Output>.Publisher {
        .init(sequence.first)
    }

    /// Publishes the element at `index`, or finishes empty when the collection has no such index;
    /// decided now, once.
    /// - Parameter index: An index of the collection.
    /// - Returns: A publisher of that element, or of nothing.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        .init(sequence.indices.contains(index) ? sequence[index] : nil)
    }
}

// Combine declares these two again for random-access collections, with the results of the
// `Collection` forms above; they repeat those declarations so that Tether has the overloads
// Combine has, and share their work (`sequence.count`, `elements(in:)`).
extension Publishers.Sequence where Elements: RandomAccessCollection {
    /// The random-access form of `count()` that Combine declares: the count, taken now, once.
    /// - Returns: A publisher of one count, with the same failure type.
    @inlinable
    public func count() -> Result<Int, Failure>.Publisher {
        .init(sequence.count)
    }

    /// The random-access form of `output(in:)` that Combine declares: the elements at the
    /// indices in `range`, sliced now, once.
    /// - Parameter range: The indices of the collection whose elements to publish.
    /// - Returns: A sequence publisher of those elements, with the same failure type.
    @inlinable
    public func output(in range: Range<Elements.Index>) -> Publishers.Sequence<[Output], Failure> {
        .init(sequence: elements(in: range))
    }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
    /// Publishes the number of elements, which a sequence publisher that cannot fail always has.
    /// - Returns: A `Just` of the count, computed now, once.
    @inlinable
    public func count() -> Just<Int> {
        Just(sequence.count)
    }

    /// Publishes the element at `index`, or finishes empty when `index` is outside the
    /// collection's bounds; decided now, once, without walking the indices.
    /// - Parameter index: An index of the collection.
    /// - Returns: A publisher of that element, or of nothing.
    @inlinable
    public func output(at index: Elements.Index) -> Optional<Output>.Publisher {
        .init(index >= sequence.startIndex && index < sequence.endIndex ? sequence[index] : nil)
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

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
    /// Publishes the minimum element, or finishes empty; computed now, once.
    /// - Returns: A publisher of the minimum, or of nothing for an empty sequence.
    @inlinable
    public func min() -> Optional<Elements.Element>.Publisher {
        .init(sequence.min())
    }

    /// Publishes the maximum element, or finishes empty; computed now, once.
    /// - Returns: A publisher of the maximum, or of nothing for an empty sequence.
    @inlinable
    public func max() -> Optional<Elements.Element>.Publisher {
        .init(sequence.max())
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
