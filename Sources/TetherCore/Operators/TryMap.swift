extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// error-throwing closure.
    ///
    /// Demand passes through unchanged. If the closure throws, the publisher cancels the upstream
    /// and fails with the thrown error. Upstream failures are republished as `any Error`. The
    /// closure runs on the thread that delivers the upstream value.
    ///
    /// As in Combine, once the stream has ended (a throw, a completion or a cancel), a value the
    /// upstream still sends is transformed and delivered, and a throw fails the subscriber again;
    /// a completion is ignored. The subscription holds the subscriber and the closure for its
    /// whole life.
    ///
    /// As in Combine, a value that arrives before the upstream's subscription is still
    /// transformed and delivered, and the subscriber's demand goes back; a completion, a request
    /// or a `cancel` before the subscription is ignored.
    public struct TryMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) throws -> Output

        /// Creates a publisher that transforms all elements from the upstream publisher with a
        /// provided error-throwing closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: The error-throwing closure that transforms elements from the upstream
        ///     publisher.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through a `TrySubscription` subscription described as "TryMap".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                TrySubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryMap", downstream: subscriber, beforeSubscription: .forwardValues,
                    afterEnd: .deliverAndFailAgain
                ) {
                    try transform($0)
                })
        }
    }
}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided error-throwing closure.
    ///
    /// Demand passes through unchanged. If the closure throws, the upstream is cancelled and the
    /// publisher fails with the thrown error.
    /// - Parameter transform: A closure that takes one element as its parameter and returns a
    ///   new element. If the closure throws an error, the publisher fails with the thrown error.
    /// - Returns: A publisher that uses the provided closure to map elements from the upstream
    ///   publisher to new elements that it then publishes.
    @inlinable
    public consuming func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
        Publishers.TryMap(upstream: self, transform: transform)
    }
}

extension Publishers.Map {
    /// Fuses a map and a try-map into one: `map(f).tryMap(g)` runs `try g(f(x))` in a single
    /// relay.
    /// - Parameter transform: A closure that takes one element as its parameter and returns a
    ///   new element. If the closure throws an error, the publisher fails with the thrown error.
    /// - Returns: One `TryMap` over the original upstream.
    @inlinable
    public consuming func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
    }
}

extension Publishers.TryMap {
    /// Fuses a try-map and a map into one: `tryMap(f).map(g)` runs `g(try f(x))` in a single
    /// relay.
    /// - Parameter transform: A closure that takes one element as its parameter and returns a
    ///   new element.
    /// - Returns: One `TryMap` over the original upstream.
    @inlinable
    public consuming func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
    }

    /// Fuses two try-maps into one: `tryMap(f).tryMap(g)` runs `try g(try f(x))` in a single
    /// relay.
    /// - Parameter transform: A closure that takes one element as its parameter and returns a
    ///   new element. If the closure throws an error, the publisher fails with the thrown error.
    /// - Returns: One `TryMap` over the original upstream.
    @inlinable
    public consuming func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Upstream, T> {
        let first = self.transform
        return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
    }
}
