extension Result {
    /// The type of a publisher that publishes a result's success value to each subscriber
    /// exactly once, or fails at once if the result is a failure.
    ///
    /// With `.success` each subscriber receives the value on its first positive demand, then
    /// `.finished`, on the thread that requested. With `.failure` each subscriber receives
    /// ``Subscriptions/empty`` and the failure immediately upon subscription, without demand.
    public struct Publisher: TetherCore.Publisher {
        /// The kind of value published by this publisher.
        public typealias Output = Success

        /// The result to deliver to each subscriber.
        public let result: Result<Success, Failure>

        /// Creates a publisher that delivers the specified result.
        /// - Parameter result: The result to deliver to each subscriber.
        @inlinable
        public init(_ result: Result<Success, Failure>) {
            self.result = result
        }

        /// Creates a publisher that sends the specified output to all subscribers and finishes
        /// normally.
        /// - Parameter output: The output to deliver to each subscriber.
        @inlinable
        public init(_ output: Success) {
            result = .success(output)
        }

        /// Creates a publisher that immediately terminates upon subscription with the given
        /// failure.
        /// - Parameter failure: The failure to send when terminating.
        @inlinable
        public init(_ failure: Failure) {
            result = .failure(failure)
        }

        /// Attaches `subscriber`: a one-value subscription for a success, or an immediate
        /// failure.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Success, S.Failure == Failure {
            switch result {
            case .success(let output):
                SingleValueSubscription(downstream: subscriber, value: output, publisherName: "Once")
                    .start(subscriber)
            case .failure(let failure):
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(failure))
            }
        }
    }

    /// A publisher that publishes this result's success value to each subscriber exactly
    /// once, or fails immediately if the result is a failure.
    @inlinable
    public var publisher: Result<Success, Failure>.Publisher {
        Result<Success, Failure>.Publisher(self)
    }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}

extension Result.Publisher: Sendable where Success: Sendable {}

extension Result.Publisher {
    /// Transforms the success value, if any, right away; a failure passes through unchanged.
    ///
    /// - Parameter transform: A closure that takes the success value and returns a new one.
    /// - Returns: A `Result.Publisher` of the transformed result.
    @inlinable
    public func map<T>(_ transform: (Success) -> T) -> Result<T, Failure>.Publisher {
        Result<T, Failure>.Publisher(result.map(transform))
    }

    /// Transforms the success value, if any, right away with an error-throwing closure.
    ///
    /// - Parameter transform: A closure that takes the success value and returns a new one, or
    ///   throws.
    /// - Returns: A `Result.Publisher` of the transformed value, or failing with the original
    ///   failure or the thrown error.
    @inlinable
    public func tryMap<T>(_ transform: (Success) throws -> T) -> Result<T, any Error>.Publisher {
        switch result {
        case .success(let value):
            return Result<T, any Error>.Publisher(Result<T, any Error> { try transform(value) })
        case .failure(let failure):
            return Result<T, any Error>.Publisher(failure)
        }
    }
}

extension Result.Publisher where Failure == Never {
    /// Declares a failure type for a publisher that cannot fail, keeping it a `Result` publisher.
    /// - Parameter failureType: The failure type to declare.
    /// - Returns: A publisher of the same value that can, in its type, fail with `E`.
    @inlinable
    public func setFailureType<E: Error>(to failureType: E.Type) -> Result<Output, E>.Publisher {
        switch result {
        case .success(let output): return .init(output)
        }
    }
}
