/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// Each subscriber gets its own subscription; on its first positive demand it receives
/// ``output`` and then `.finished`, on the thread that made the request. `Just` cannot fail.
/// Requesting `.none` is a contract violation and traps.
public struct Just<Output>: Publisher {
    /// The kind of errors this publisher might publish: it never fails.
    public typealias Failure = Never

    // `output` is Just's only stored property: the flattening operators read a Just's value where it
    // lies (valueOfJust). Keep it so.
    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    /// - Parameter output: The one element that the publisher emits.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    /// Attaches `subscriber` and hands it a subscription that delivers ``output`` on demand.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        SingleValueSubscription(downstream: subscriber, value: output, publisherName: "Just")
            .start(subscriber)
    }
}

extension Just: Equatable where Output: Equatable {}

extension Just: Sendable where Output: Sendable {}

extension Just {
    /// Transforms the output right away and wraps the result in a new `Just`.
    ///
    /// Unlike ``Publisher/map(_:)->Publishers.Map<Self,T>``, the closure runs once, now, not per
    /// subscriber.
    /// - Parameter transform: A closure that takes the output and returns a new element.
    /// - Returns: A `Just` that publishes the transformed element.
    @inlinable
    public func map<T>(_ transform: (Output) -> T) -> Just<T> {
        Just<T>(transform(output))
    }

    /// Transforms the output right away with an error-throwing closure.
    ///
    /// - Parameter transform: A closure that takes the output and returns a new element, or
    ///   throws.
    /// - Returns: A `Result.Publisher` that publishes the new element, or fails with the thrown
    ///   error as soon as it is subscribed to.
    @inlinable
    public func tryMap<T>(_ transform: (Output) throws -> T) -> Result<T, any Error>.Publisher {
        Result<T, any Error>.Publisher(Result { try transform(output) })
    }

    /// Tests the output right away and keeps it only if the closure returns `true`.
    ///
    /// - Parameter isIncluded: A closure that takes the output and returns whether to publish it.
    /// - Returns: An `Optional.Publisher` that publishes the output, or finishes without a value
    ///   when the closure rejected it.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(isIncluded(output) ? output : nil)
    }

    /// Transforms the output right away and publishes the result if it is not `nil`.
    ///
    /// - Parameter transform: A closure that takes the output and returns an optional element.
    /// - Returns: An `Optional.Publisher` that publishes the non-`nil` result, or finishes without
    ///   a value.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Optional<T>.Publisher {
        Optional<T>.Publisher(transform(output))
    }
}

extension Just {
    /// Declares a failure type, as Combine's `Just` does: a `Result` publisher that succeeds.
    /// - Parameter failureType: The failure type to declare.
    /// - Returns: A publisher of the same value that can, in its type, fail with `E`.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        .init(output)
    }
}
