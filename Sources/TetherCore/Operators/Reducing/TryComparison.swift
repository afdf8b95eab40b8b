extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item, and fails if the ordering logic
    /// throws an error.
    ///
    /// Like ``Publishers/Comparison``, it publishes the greatest element when the upstream
    /// finishes, after asking the upstream for `.unlimited` on the subscriber's first positive
    /// request. If the closure throws, the publisher cancels the upstream and fails with the
    /// error; nothing follows. Upstream failures are republished as `any Error`.
    public struct TryComparison<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that keeps the greatest element of the upstream according to an
        /// error-throwing closure.
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - areInIncreasingOrder: A closure that receives two elements and returns true if
        ///     they are in increasing order.
        @inlinable
        public init(
            upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
        ) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "TryComparison".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let areInIncreasingOrder = self.areInIncreasingOrder
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "TryComparison", downstream: subscriber, initial: nil, failure: { $0 }
                ) { (greatest, input) throws(any Error) in
                    if let current = greatest, try !areInIncreasingOrder(current, input) {
                        return .more
                    }
                    greatest = input
                    return .more
                })
        }
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    ///
    /// As soon as this publisher is subscribed, it requests unlimited items from its upstream
    /// publisher.
    /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and
    ///   returns true if they're in increasing order. If this closure throws, the publisher
    ///   terminates with a failure.
    /// - Returns: A publisher that publishes the minimum value received from the upstream
    ///   publisher, after the upstream publisher finishes.
    @inlinable
    public consuming func tryMin(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self) { try areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// error-throwing closure to order the items.
    ///
    /// As soon as this publisher is subscribed, it requests unlimited items from its upstream
    /// publisher.
    /// - Parameter areInIncreasingOrder: A throwing closure that receives two elements and
    ///   returns true if they're in increasing order. If this closure throws, the publisher
    ///   terminates with a failure.
    /// - Returns: A publisher that publishes the maximum value received from the upstream
    ///   publisher, after the upstream publisher finishes.
    @inlinable
    public consuming func tryMax(
        by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryComparison<Self> {
        Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
