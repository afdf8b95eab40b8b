extension Publishers {
    /// A publisher that republishes items from another publisher only if each new item is in
    /// increasing order from the previously-published item.
    ///
    /// It keeps the greatest element seen according to `areInIncreasingOrder` (the first of
    /// equal ones) and publishes it when the upstream finishes; `min` operators pass the closure
    /// with its arguments swapped. It asks the upstream for `.unlimited` as soon as it is
    /// subscribed. The value (none for an empty upstream) and `.finished` wait for the first
    /// request if it has not come yet. Upstream failures pass
    /// through as `Upstream.Failure`. The closure runs on the thread that delivers each upstream
    /// value.
    public struct Comparison<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that receives two elements and returns true if they are in increasing order.
        public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that keeps the greatest element of the upstream according to a
        /// closure.
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - areInIncreasingOrder: A closure that receives two elements and returns true if
        ///     they are in increasing order.
        @inlinable
        public init(upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.areInIncreasingOrder = areInIncreasingOrder
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "Comparison".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let areInIncreasingOrder = self.areInIncreasingOrder
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "Comparison", downstream: subscriber, initial: nil, failure: { $0 }
                ) { greatest, input in
                    if let current = greatest, !areInIncreasingOrder(current, input) {
                        return .more
                    }
                    greatest = input
                    return .more
                })
        }
    }
}

extension Publisher where Output: Comparable {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    ///
    /// As soon as this publisher is subscribed, it requests unlimited items from its upstream
    /// publisher.
    /// - Returns: A publisher that publishes the minimum value received from the upstream
    ///   publisher, after the upstream publisher finishes.
    @inlinable
    public consuming func min() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: >)
    }

    /// Publishes the maximum value received from the upstream publisher, after it finishes.
    ///
    /// As soon as this publisher is subscribed, it requests unlimited items from its upstream
    /// publisher.
    /// - Returns: A publisher that publishes the maximum value received from the upstream
    ///   publisher, after the upstream publisher finishes.
    @inlinable
    public consuming func max() -> Publishers.Comparison<Self> {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: <)
    }
}

extension Publisher {
    /// Publishes the minimum value received from the upstream publisher, after it finishes.
    ///
    /// As soon as this publisher is subscribed, it requests unlimited items from its upstream
    /// publisher.
    /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns true
    ///   if they're in increasing order.
    /// - Returns: A publisher that publishes the minimum value received from the upstream
    ///   publisher, after the upstream publisher finishes.
    @inlinable
    public consuming func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
        -> Publishers.Comparison<Self>
    {
        Publishers.Comparison(upstream: self) { areInIncreasingOrder($1, $0) }
    }

    /// Publishes the maximum value received from the upstream publisher, using the provided
    /// ordering closure.
    ///
    /// As soon as this publisher is subscribed, it requests unlimited items from its upstream
    /// publisher.
    /// - Parameter areInIncreasingOrder: A closure that receives two elements and returns true
    ///   if they're in increasing order.
    /// - Returns: A publisher that publishes the maximum value received from the upstream
    ///   publisher, after the upstream publisher finishes.
    @inlinable
    public consuming func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
        -> Publishers.Comparison<Self>
    {
        Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
    }
}
