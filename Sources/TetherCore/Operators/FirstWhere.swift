extension Publishers {
    /// A publisher that only publishes the first element of a stream to satisfy a predicate
    /// closure.
    ///
    /// It asks its upstream for `.unlimited` as soon as it is subscribed, before the subscriber
    /// requests anything. On the first element the predicate accepts it cancels the upstream; the
    /// element and `.finished` go out once the subscriber has requested at least one element (if
    /// the upstream finishes first, only `.finished`, also after a request). Failures pass through
    /// as `Upstream.Failure`. The predicate runs on the thread that delivers the upstream value.
    /// Completion or cancellation releases the predicate; the subscription keeps its subscriber, as
    /// Combine's does, until the subscriber lets the subscription go.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether to publish an element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that publishes the first element to satisfy `predicate`.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether to publish an element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "TryFirst", the
        /// name Combine gives it.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Output, Failure, S>(name: "TryFirst", downstream: subscriber, initial: nil, failure: { $0 }) {
                    first, input in
                    guard predicate(input) else { return .more }
                    first = input
                    return .settled
                })
        }
    }
}

extension Publisher {
    /// Publishes the first element of a stream to satisfy a predicate closure, then finishes
    /// normally.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes, and cancels the upstream
    /// once an element satisfies the predicate. Nothing goes down before the subscriber's first
    /// request.
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a
    ///   Boolean value that indicates whether to publish the element.
    /// - Returns: A publisher that only publishes the first element of a stream that satisfies
    ///   the predicate.
    @inlinable
    public consuming func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}
