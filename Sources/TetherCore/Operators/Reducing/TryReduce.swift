extension Publishers {
    /// A publisher that applies an error-throwing closure to all received elements and produces
    /// an accumulated value when the upstream publisher finishes.
    ///
    /// The publisher asks the upstream for `.unlimited` as soon as it is subscribed, before the
    /// subscriber requests anything. When the upstream finishes, it publishes the accumulated value
    /// (waiting for that first request if it has not come yet) and then finishes. If the closure
    /// throws, the publisher cancels the upstream and fails with the error; nothing follows.
    /// Upstream failures are republished as `any Error`. The closure runs on the thread that
    /// delivers each upstream value. Completion or cancellation releases the closure and the
    /// partial result; the subscription keeps its subscriber, as Combine's does, until the
    /// subscriber lets the subscription go.
    public struct TryReduce<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The initial value provided on the first-use of the closure.
        public let initial: Output

        /// An error-throwing closure that takes the previously-accumulated value and the next
        /// element from the upstream to produce a new value.
        ///
        /// If this closure throws an error, the publisher fails and passes the error to its
        /// subscriber.
        public let nextPartialResult: (Output, Upstream.Output) throws -> Output

        /// Creates a publisher that applies an error-throwing closure to all received elements
        /// and produces an accumulated value when the upstream publisher finishes.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initial: The initial value provided on the first-use of the closure.
        ///   - nextPartialResult: An error-throwing closure that takes the
        ///     previously-accumulated value and the next element from the upstream to produce a
        ///     new value. If this closure throws an error, the publisher fails and passes the
        ///     error to its subscriber.
        @inlinable
        public init(
            upstream: Upstream, initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "TryReduce".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let nextPartialResult = self.nextPartialResult
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "TryReduce", downstream: subscriber, initial: initial, failure: { $0 }
                ) { (result, input) throws(any Error) in
                    if let current = result {
                        result = try nextPartialResult(current, input)
                    }
                    return .more
                })
        }
    }
}

extension Publisher {
    /// Applies an error-throwing closure that collects each element of a stream and publishes a
    /// final result upon completion.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes. If the
    /// closure throws, the upstream is cancelled and the publisher fails with the error.
    /// - Parameters:
    ///   - initialResult: The value that the closure receives the first time it's called.
    ///   - nextPartialResult: An error-throwing closure that takes the previously-accumulated
    ///     value and the next element from the upstream publisher to produce a new value.
    /// - Returns: A publisher that applies the closure to all received elements and produces an
    ///   accumulated value when the upstream publisher finishes.
    @inlinable
    public consuming func tryReduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
    ) -> Publishers.TryReduce<Self, T> {
        Publishers.TryReduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}
