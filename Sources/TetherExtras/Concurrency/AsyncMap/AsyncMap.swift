import TetherCore

extension Publisher where Output: Sendable {
    /// Transforms each element with an `async` closure, running up to `maxConcurrent`
    /// transforms at once, and publishes the results in the order of the input.
    ///
    /// Demand: upstream is asked only for what can be processed now, `maxConcurrent` minus the
    /// values being transformed or waiting for an earlier result, and never more than downstream
    /// has asked for. Results finished out of order wait for the earlier ones (they count
    /// against `maxConcurrent`), so nothing is buffered without bound. An upstream failure is
    /// passed on at once, cancelling the running transforms; after an upstream `.finished` the
    /// results still due are delivered first.
    ///
    /// Each transform runs in its own unstructured `Task`, on the global concurrent executor
    /// unless the closure is isolated to an actor. Results are delivered on the thread of the
    /// task whose completion made them deliverable, or on the requesting thread. Cancelling
    /// cancels the running tasks and the upstream subscription.
    ///
    /// ```swift
    /// urls.publisher
    ///     .asyncMap(maxConcurrent: 4) { url in await download(url) }
    ///     .sink { page in show(page) }
    /// ```
    /// - Parameters:
    ///   - maxConcurrent: How many transforms may run at once; at least 1.
    ///   - transform: The `async` transform.
    /// - Returns: A publisher of the transformed values, failing as upstream does.
    public consuming func asyncMap<T: Sendable>(
        maxConcurrent: Int, _ transform: @escaping @Sendable (Output) async -> T
    ) -> Publishers.AsyncMap<Self, T> {
        Publishers.AsyncMap(upstream: self, maxConcurrent: maxConcurrent, transform: transform)
    }
}

extension Publishers {
    /// A publisher that transforms each element with an `async` closure, with bounded
    /// concurrency, publishing the results in input order.
    ///
    /// See ``Publisher/asyncMap(maxConcurrent:_:)`` for the demand and threading behaviour.
    public struct AsyncMap<Upstream: Publisher, Output: Sendable>: Publisher where Upstream.Output: Sendable {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// How many transforms may run at once.
        public let maxConcurrent: Int

        /// The `async` closure that transforms elements from the upstream publisher.
        public let transform: @Sendable (Upstream.Output) async -> Output

        /// Creates a publisher that transforms upstream elements with an `async` closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - maxConcurrent: How many transforms may run at once; at least 1.
        ///   - transform: The `async` transform.
        public init(
            upstream: Upstream, maxConcurrent: Int,
            transform: @escaping @Sendable (Upstream.Output) async -> Output
        ) {
            precondition(maxConcurrent > 0, "asyncMap needs maxConcurrent of at least 1, not \(maxConcurrent)")
            self.upstream = upstream
            self.maxConcurrent = maxConcurrent
            self.transform = transform
        }

        /// Attaches `subscriber` through a subscription that runs the transforms.
        /// - Parameter subscriber: The subscriber to attach.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                AsyncMapSubscription<Upstream.Output, Output, Failure, Failure>(
                    name: "AsyncMap", maxConcurrent: maxConcurrent, downstream: AnySubscriber(subscriber),
                    transform: { .success(await transform($0)) }, mapFailure: { $0 }))
        }
    }
}

extension Publishers.AsyncMap: Sendable where Upstream: Sendable {}
