extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element.
    ///
    /// It subscribes to ``other``, then to the upstream, asking `other` for one element. Demand
    /// passes to the upstream unchanged. When `other` emits, the publisher cancels `other` and
    /// the upstream and finishes. `other` finishing or failing without an element changes
    /// nothing. Upstream failures pass through as `Upstream.Failure`. Signals go out on the
    /// thread that delivers the upstream's signal, or `other`'s element.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements until another publisher emits an
        /// element.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - other: Another publisher, the first output from which causes this publisher to
        ///     finish.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches `subscriber` through a subscription described as "PrefixUntilOutput".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UntilOutputRelay<Output, Failure, Other.Output, Other.Failure, S>(
                name: "PrefixUntilOutput", mode: .prefix, downstream: subscriber, triggerFailure: { _ in nil })
            // The trigger first, so that a trigger that fires at once is seen before a
            // synchronous upstream delivers anything.
            other.receive(subscriber: relay.triggerInlet)
            upstream.receive(subscriber: relay)
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

extension Publisher {
    /// Republishes elements until another publisher emits an element.
    ///
    /// Asks `publisher` for one element; when it arrives, cancels `publisher` and the upstream
    /// and finishes. Demand passes to the upstream unchanged.
    /// - Parameter publisher: A second publisher.
    /// - Returns: A publisher that republishes elements until the second publisher publishes an
    ///   element.
    @inlinable
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
