/// A publisher that never publishes any values, and optionally finishes immediately.
///
/// Each subscriber receives ``Subscriptions/empty``; when ``completeImmediately`` is `true` it
/// then receives `.finished` at once, on the subscribing thread. `Empty(completeImmediately:
/// false)` is a "never" publisher: it sends nothing, ever.
public struct Empty<Output, Failure: Error>: Publisher, Equatable, Sendable {
    /// A Boolean value that indicates whether the publisher immediately sends a completion.
    ///
    /// If `true`, the publisher finishes immediately after sending a subscription to the
    /// subscriber. If `false`, it never completes.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    /// - Parameter completeImmediately: A Boolean value that indicates whether the publisher
    ///   should immediately finish.
    @inlinable
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with the given completion behavior and output and failure
    /// types.
    ///
    /// Use this initializer to connect the empty publisher to subscribers or other publishers
    /// that have specific output and failure types.
    /// - Parameters:
    ///   - completeImmediately: A Boolean value that indicates whether the publisher should
    ///     immediately finish.
    ///   - outputType: The output type exposed by this publisher.
    ///   - failureType: The failure type exposed by this publisher.
    @inlinable
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.completeImmediately = completeImmediately
    }

    /// Attaches `subscriber`, handing it the empty subscription and, if so configured, `.finished`.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }

    /// Two empty publishers are equal when they agree on ``completeImmediately``.
    public static func == (lhs: Empty<Output, Failure>, rhs: Empty<Output, Failure>) -> Bool {
        lhs.completeImmediately == rhs.completeImmediately
    }
}
