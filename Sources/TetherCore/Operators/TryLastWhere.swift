extension Publishers {
    /// A publisher that only publishes the last element of a stream to satisfy a throwing
    /// predicate closure.
    ///
    /// It waits until the upstream finishes. It asks its upstream for `.unlimited` as soon as it is
    /// subscribed, before the subscriber requests anything, and keeps the latest element the
    /// predicate accepts. Once the upstream has finished and the subscriber has requested at least
    /// one element, it delivers that element and finishes. If the predicate throws, it cancels the
    /// upstream and fails with the error at once. Upstream failures are republished as `any Error`.
    /// The predicate runs on the thread that delivers the upstream value. Completion or
    /// cancellation releases the predicate; the subscription keeps its subscriber, as Combine's
    /// does, until the subscriber lets the subscription go.
    public struct TryLastWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether to publish an element.
        public let predicate: (Output) throws -> Bool

        /// Creates a publisher that publishes the last element to satisfy `predicate`.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that determines whether to publish an
        ///     element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "TryLastWhere".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Output, Upstream.Failure, S>(
                    name: "TryLastWhere", downstream: subscriber, initial: nil, failure: { $0 }
                ) { (last, input) throws(any Error) in
                    if try predicate(input) { last = input }
                    return .more
                })
        }
    }
}

extension Publisher {
    /// Publishes the last element of a stream to satisfy a throwing predicate closure, after the
    /// upstream finishes.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes. If the predicate throws,
    /// the upstream is cancelled and the publisher fails with the thrown error.
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a
    ///   Boolean value that indicates whether to publish the element, or throws.
    /// - Returns: A publisher that only publishes the last element of a stream that satisfies
    ///   the predicate.
    @inlinable
    public consuming func tryLast(where predicate: @escaping (Output) throws -> Bool) -> Publishers.TryLastWhere<Self> {
        Publishers.TryLastWhere(upstream: self, predicate: predicate)
    }
}
