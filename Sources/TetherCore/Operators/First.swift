extension Publishers {
    /// A publisher that publishes the first element of a stream, then finishes.
    ///
    /// It asks its upstream for `.unlimited` as soon as the subscriber requests at least one
    /// element. On the first element it cancels the upstream, delivers the element and finishes;
    /// if the upstream finishes first, it finishes without a value. Failures pass through as
    /// `Upstream.Failure`. Signals go out on the thread that delivers the upstream's signal (or,
    /// when the upstream finished before any request, on the thread that requests).
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

        /// Attaches `subscriber` through a subscription described as "First".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber:
                StepRelay<Output, Failure, S>(name: "First", downstream: subscriber, policy: .unlimitedOnFirst) { _ in
                    .holdAndFinish
                })
        }
    }
}

extension Publishers.First: Equatable where Upstream: Equatable {}

extension Publishers.First: Sendable where Upstream: Sendable {}

extension Publisher {
    /// Publishes the first element of a stream, then finishes.
    ///
    /// Requests `.unlimited` from the upstream as soon as the subscriber requests at least one
    /// element, and cancels the upstream once the first element arrives. If the upstream
    /// finishes first, the publisher finishes without a value.
    /// - Returns: A publisher that only publishes the first element of a stream.
    @inlinable
    public func first() -> Publishers.First<Self> {
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
