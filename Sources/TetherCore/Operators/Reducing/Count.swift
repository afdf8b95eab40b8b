extension Publishers {
    /// A publisher that publishes the number of elements received from the upstream publisher.
    ///
    /// The publisher asks the upstream for `.unlimited` as soon as it is subscribed, before the
    /// subscriber requests anything. When the upstream finishes, it publishes the count (waiting
    /// for that first request if it has not come yet) and then finishes. Upstream failures pass
    /// through as `Upstream.Failure`, without a count. The count goes out on the thread that
    /// delivers the upstream's completion (or that makes the first request).
    public struct Count<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the number of elements.
        public typealias Output = Int

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the number of elements received from the upstream
        /// publisher.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "Count".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Int, S.Failure == Failure {
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "Count", downstream: subscriber, initial: 0, failure: { $0 }
                ) { count, _ in
                    count? += 1
                    return .more
                })
        }
    }
}

extension Publishers.Count: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Publishes the number of elements received from the upstream publisher.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes.
    /// - Returns: A publisher that consumes all elements until the upstream publisher finishes,
    ///   then emits a single value with the total number of elements received.
    @inlinable
    public consuming func count() -> Publishers.Count<Self> {
        Publishers.Count(upstream: self)
    }
}
