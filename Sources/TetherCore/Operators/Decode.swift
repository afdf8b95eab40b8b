extension Publishers {
    /// A publisher that decodes elements received from an upstream publisher, using a given
    /// decoder.
    ///
    /// Demand passes through unchanged. If decoding an element throws, the publisher cancels the
    /// upstream and fails with the decoder's error; upstream failures are republished as `any
    /// Error`. Decoding runs on the thread that delivers the upstream value. The subscription
    /// keeps the decoder and its subscriber, as Combine's does, until the subscriber lets the
    /// subscription go, completion and cancellation notwithstanding.
    ///
    /// As in Combine, a value or a completion that arrives before the upstream's subscription is
    /// still passed on (the value transformed, a throw failing the subscriber); a request or a
    /// `cancel` before the subscription is ignored.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        /// The kind of errors this publisher might publish: a decoding error or the upstream's.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The decoder that decodes elements received from the upstream publisher.
        @usableFromInline
        internal let decoder: Coder

        /// Creates a publisher that decodes elements received from an upstream publisher, using
        /// a given decoder.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - decoder: The decoder that decodes elements received from the upstream publisher.
        @inlinable
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        /// Attaches `subscriber` through a `TrySubscription` subscription described as "Decode".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let decoder = self.decoder
            upstream.subscribe(
                TrySubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "Decode", downstream: subscriber, beforeSubscription: .forwardAll, mirror: .coder
                ) {
                    try decoder.decode(Output.self, from: $0)
                })
        }
    }
}

extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    ///
    /// Use it with a `JSONDecoder` (or a `PropertyListDecoder`) to decode data received from a
    /// `URLSession.DataTaskPublisher` or another data source. Demand passes through unchanged;
    /// a decoding error cancels the upstream and fails the publisher with that error.
    /// - Parameters:
    ///   - type: The type to decode each element into; it conforms to `Decodable`.
    ///   - decoder: A decoder that implements the ``TopLevelDecoder`` protocol.
    /// - Returns: A publisher that decodes a given type using a specified decoder and publishes
    ///   the result.
    @inlinable
    public consuming func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}
