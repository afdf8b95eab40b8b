/// A publisher that immediately terminates with the specified error.
///
/// Each subscriber receives ``Subscriptions/empty`` and then `.failure(error)` at once, on the
/// subscribing thread, without waiting for demand.
public struct Fail<Output, Failure: Error>: Publisher {
    /// The failure to send when terminating the publisher.
    public let error: Failure

    /// Creates a publisher that immediately terminates with the specified failure.
    /// - Parameter error: The failure to send when terminating the publisher.
    @inlinable
    public init(error: Failure) {
        self.error = error
    }

    /// Creates publisher with the given output type, that immediately terminates with the
    /// specified failure.
    ///
    /// Use this initializer to create a `Fail` publisher that can work with subscribers or
    /// publishers that expect a given output type.
    /// - Parameters:
    ///   - outputType: The output type exposed by this publisher.
    ///   - failure: The failure to send when terminating the publisher.
    @inlinable
    public init(outputType: Output.Type, failure: Failure) {
        error = failure
    }

    /// Attaches `subscriber`, handing it the empty subscription and then the failure.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Equatable where Failure: Equatable {
    /// Two fail publishers are equal when their errors are.
    public static func == (lhs: Fail<Output, Failure>, rhs: Fail<Output, Failure>) -> Bool {
        lhs.error == rhs.error
    }
}

extension Fail: Sendable where Failure: Sendable {}
