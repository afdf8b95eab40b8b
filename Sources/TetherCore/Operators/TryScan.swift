extension Publishers {
    /// A publisher that transforms elements from the upstream publisher by providing the current
    /// element to a failable closure along with the last value returned by the closure.
    ///
    /// Demand passes through unchanged. If the closure throws, the publisher cancels the upstream
    /// and fails with the thrown error. Upstream failures are republished as `any Error`. The
    /// closure runs on the thread that delivers the upstream value.
    ///
    /// As in Combine, once the stream has ended (a throw, a completion or a cancel), a value the
    /// upstream still sends goes on through the closure and is delivered; a throw or a
    /// completion then sends nothing. The subscription holds the subscriber, the closure and the
    /// running result for its whole life.
    ///
    /// As in Combine, a value that arrives before the upstream's subscription is still
    /// transformed and delivered, and the subscriber's demand goes back; a completion, a request
    /// or a `cancel` before the subscription is ignored.
    public struct TryScan<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The previous result returned by the closure, for the first element.
        public let initialResult: Output

        /// An error-throwing closure that takes as its arguments the previous value returned by
        /// the closure and the next element emitted from the upstream publisher.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that transforms elements from the upstream publisher by providing
        /// the current element to a failable closure along with the last value returned by the
        /// closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initialResult: The previous result returned by the closure, for the first
        ///     element.
        ///   - nextPartialResult: An error-throwing closure that takes as its arguments the
        ///     previous value returned by the closure and the next element emitted from the
        ///     upstream publisher.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber` through a `TrySubscription` subscription described as "TryScan".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let nextPartialResult = self.nextPartialResult
            // One running result per subscription, touched only on the relay's serial path.
            let accumulated = SerialVariable(initialResult)
            upstream.subscribe(
                TrySubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryScan", downstream: subscriber, beforeSubscription: .forwardValues,
                    afterEnd: .deliver,
                    mirror: .downstreamAnd { status in [("status", status), ("result", accumulated.value)] }
                ) {
                    accumulated.value = try nextPartialResult(accumulated.value, $0)
                    return accumulated.value
                })
        }
    }
}

extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to an
    /// error-throwing closure along with the last value returned by the closure.
    ///
    /// Demand passes through unchanged. If the closure throws, the upstream is cancelled and the
    /// publisher fails with the error.
    /// - Parameters:
    ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
    ///   - nextPartialResult: An error-throwing closure that takes as its arguments the previous
    ///     value returned by the closure and the next element emitted from the upstream
    ///     publisher.
    /// - Returns: A publisher that transforms elements by applying a closure that receives its
    ///   previous return value and the next element from the upstream publisher.
    @inlinable
    public consuming func tryScan<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryScan<Self, T> {
        Publishers.TryScan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
