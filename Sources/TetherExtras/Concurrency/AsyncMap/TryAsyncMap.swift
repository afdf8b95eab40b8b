import TetherCore

extension Publisher where Output: Sendable {
    /// Transforms each element with a throwing `async` closure, running up to `maxConcurrent`
    /// transforms at once, and publishes the results in the order of the input.
    ///
    /// Demand and threading are those of ``Publisher/asyncMap(maxConcurrent:_:)``. An error
    /// thrown by a transform fails the stream in its place in the order: the results of earlier
    /// elements are delivered first, then the failure, and the later transforms and the upstream
    /// subscription are cancelled. Upstream failures are passed on at once.
    /// - Parameters:
    ///   - maxConcurrent: How many transforms may run at once; at least 1.
    ///   - transform: The throwing `async` transform.
    /// - Returns: A publisher of the transformed values whose failure type is `any Error`.
    public consuming func tryAsyncMap<T: Sendable>(
        maxConcurrent: Int, _ transform: @escaping @Sendable (Output) async throws -> T
    ) -> Publishers.TryAsyncMap<Self, T> {
        Publishers.TryAsyncMap(upstream: self, maxConcurrent: maxConcurrent, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms each element with a throwing `async` closure, with bounded
    /// concurrency, publishing the results in input order.
    ///
    /// See ``Publisher/tryAsyncMap(maxConcurrent:_:)`` for the demand, failure and threading
    /// behaviour.
    public struct TryAsyncMap<Upstream: Publisher, Output: Sendable>: Publisher where Upstream.Output: Sendable {
        /// The kind of errors this publisher might publish: the upstream's or the transform's.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// How many transforms may run at once.
        public let maxConcurrent: Int

        /// The throwing `async` closure that transforms elements from the upstream publisher.
        public let transform: @Sendable (Upstream.Output) async throws -> Output

        /// Creates a publisher that transforms upstream elements with a throwing `async` closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - maxConcurrent: How many transforms may run at once; at least 1.
        ///   - transform: The throwing `async` transform.
        public init(
            upstream: Upstream, maxConcurrent: Int,
            transform: @escaping @Sendable (Upstream.Output) async throws -> Output
        ) {
            precondition(maxConcurrent > 0, "tryAsyncMap needs maxConcurrent of at least 1, not \(maxConcurrent)")
            self.upstream = upstream
            self.maxConcurrent = maxConcurrent
            self.transform = transform
        }

        /// Attaches `subscriber` through a subscription that runs the transforms.
        /// - Parameter subscriber: The subscriber to attach.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                AsyncMapSubscription<Upstream.Output, Output, Upstream.Failure, any Error>(
                    name: "TryAsyncMap", maxConcurrent: maxConcurrent, downstream: AnySubscriber(subscriber),
                    transform: { input in
                        do {
                            return .success(try await transform(input))
                        } catch {
                            return .failure(error)
                        }
                    },
                    mapFailure: { $0 }))
        }
    }
}

extension Publishers.TryAsyncMap: Sendable where Upstream: Sendable {}
