extension Publishers {
    /// A publisher that applies a closure to all received elements and produces an accumulated
    /// value when the upstream publisher finishes.
    ///
    /// The publisher asks the upstream for `.unlimited` as soon as it is subscribed, before the
    /// subscriber requests anything. When the upstream finishes, it publishes the accumulated value
    /// (waiting for that first request if it has not come yet) and then finishes. Upstream failures
    /// pass through as `Upstream.Failure`, without a value. The closure runs on the thread that
    /// delivers each upstream value; the result goes out on the thread that delivers the upstream's
    /// completion (or that makes the first request). Completion or cancellation releases the
    /// subscriber, the closure and the partial result.
    public struct Reduce<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The initial value provided on the first invocation of the closure.
        public let initial: Output

        /// A closure that takes the previously-accumulated value and the next element from the
        /// upstream publisher to produce a new value.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that applies a closure to all received elements and produces an
        /// accumulated value when the upstream publisher finishes.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initial: The initial value provided on the first invocation of the closure.
        ///   - nextPartialResult: A closure that takes the previously-accumulated value and the
        ///     next element from the upstream publisher to produce a new value.
        @inlinable
        public init(
            upstream: Upstream, initial: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initial = initial
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "Reduce".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let nextPartialResult = self.nextPartialResult
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "Reduce", downstream: subscriber, initial: initial, failure: { $0 }
                ) { result, input in
                    if let current = result {
                        result = nextPartialResult(current, input)
                    }
                    return .more
                })
        }
    }
}

extension Publisher {
    /// Applies a closure that collects each element of a stream and publishes a final result
    /// upon completion.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes. An
    /// upstream failure is delivered instead of the result.
    /// - Parameters:
    ///   - initialResult: The value that the closure receives the first time it's called.
    ///   - nextPartialResult: A closure that produces a new value by taking the
    ///     previously-accumulated value and the next element it receives from the upstream
    ///     publisher.
    /// - Returns: A publisher that applies the closure to all received elements and produces an
    ///   accumulated value when the upstream publisher finishes.
    @inlinable
    public consuming func reduce<T>(
        _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
    ) -> Publishers.Reduce<Self, T> {
        Publishers.Reduce(upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
    }
}
