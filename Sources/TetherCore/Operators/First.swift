extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    ///
    /// It asks its upstream for `.unlimited` as soon as it is subscribed, before the subscriber
    /// requests anything. On the first element it cancels the upstream; the element and
    /// `.finished` go out once the subscriber has requested at least one element (if the upstream
    /// finishes first, only `.finished`, also after a request). Failures pass through as
    /// `Upstream.Failure`, without demand. Signals go out on the thread that delivers the
    /// upstream's signal, or on the thread of the first request if it comes later.
    public struct First<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that publishes the first element of a stream, then finishes.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "First".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Reducer<Output, Failure, S>(name: "First", downstream: subscriber, initial: nil, failure: { $0 }) {
                    first, input in
                    first = input
                    return .settled
                })
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publishers.First: Sendable where Upstream: Sendable {}

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes, and cancels the upstream
    /// once the first element arrives. If the upstream finishes first, the publisher finishes
    /// without a value. Nothing goes down before the subscriber's first request.
    /// - Returns: A publisher that only publishes the first element of a stream.
    @inlinable
    public consuming func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }
}

extension Result.Publisher {
    /// Publishes the result right away as its own first element: the same publisher.
    /// - Returns: A `Result.Publisher` with the same result.
    @inlinable
    public func first() -> Result<Output, Failure>.Publisher {
        self
    }
}
