extension Publishers {
    /// A publisher that republishes all non-nil results of calling an error-throwing closure with
    /// each received element.
    ///
    /// Each `nil` result is compensated with a demand of one, so the subscriber's demand counts
    /// only elements it receives. If the closure throws, the publisher cancels the upstream and
    /// fails with the thrown error; it delivers nothing after that. Upstream failures are
    /// republished as `any Error`. The closure runs on the thread that delivers the upstream value.
    /// The subscription keeps the closure and its subscriber, as Combine's does, until the
    /// subscriber lets the subscription go, completion and cancellation notwithstanding.
    ///
    /// As in Combine, an upstream that sends a value or a completion before its subscription, or
    /// a request made before then, stops the process; a `cancel` before then cancels the
    /// subscription when it comes.
    public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that receives values from the upstream publisher and returns
        /// optional values.
        public let transform: (Upstream.Output) throws -> Output?

        /// Creates a publisher that republishes all non-nil results of calling an error-throwing
        /// closure with each received element.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: An error-throwing closure that receives values from the upstream
        ///     publisher and returns optional values.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through a `TrySubscription` subscription described as
        /// "TryCompactMap".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                TrySubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryCompactMap", downstream: subscriber, beforeSubscription: .trap, mirror: .downstream,
                    step: transform))
        }
    }
}

extension Publisher {
    /// Calls an error-throwing closure with each received element and publishes any returned
    /// optional that has a value.
    ///
    /// `nil` results are replaced by a demand of one towards the upstream. If the closure throws,
    /// the upstream is cancelled and the publisher fails with the thrown error.
    /// - Parameter transform: An error-throwing closure that receives a value and returns an
    ///   optional value.
    /// - Returns: A publisher that republishes all non-`nil` results of calling the transform.
    @inlinable
    public consuming func tryCompactMap<T>(
        _ transform: @escaping (Output) throws -> T?
    ) -> Publishers.TryCompactMap<Self, T> {
        Publishers.TryCompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.TryCompactMap {
    /// Fuses two compacting maps into one: `tryCompactMap(f).compactMap(g)` runs
    /// `try f(x).flatMap(g)` in a single relay.
    /// - Parameter transform: An error-throwing closure that receives a value and returns an
    ///   optional value.
    /// - Returns: One `TryCompactMap` over the original upstream.
    @inlinable
    public consuming func compactMap<T>(
        _ transform: @escaping (Output) throws -> T?
    ) -> Publishers.TryCompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryCompactMap(upstream: upstream) { value in
            guard let intermediate = try first(value) else { return nil }
            return try transform(intermediate)
        }
    }
}
