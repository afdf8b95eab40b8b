extension Publishers {
    /// A publisher that only publishes the last element of a stream to satisfy a predicate
    /// closure.
    ///
    /// It waits until the upstream finishes. It asks its upstream for `.unlimited` as soon as it is
    /// subscribed, before the subscriber requests anything, and keeps the latest element the
    /// predicate accepts. Once the upstream has finished and the subscriber has requested at least
    /// one element, it delivers that element and finishes; if none was accepted, it finishes
    /// without a value. Failures pass through as `Upstream.Failure`, without demand. The predicate
    /// runs on the thread that delivers the upstream value. Completion or cancellation releases the
    /// subscriber and the predicate.
    public struct LastWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that publishes the last element to satisfy `predicate`.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether to publish an element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "LastWhere".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Output, Failure, S>(
                    name: "LastWhere", downstream: subscriber, initial: nil, failure: { $0 }
                ) {
                    last, input in
                    if predicate(input) { last = input }
                    return .more
                })
        }
    }
}

extension Publisher {
    /// Publishes the last element of a stream to satisfy a predicate closure, after the
    /// upstream finishes.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes, and publishes the last
    /// element that satisfied it once the upstream finishes.
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a
    ///   Boolean value that indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the last element of a stream that satisfies
    ///   the predicate.
    @inlinable
    public consuming func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
        Publishers.LastWhere(upstream: self, predicate: predicate)
    }
}
