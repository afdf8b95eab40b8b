extension Publishers {
    /// A publisher that encodes elements received from an upstream publisher, using a given
    /// encoder.
    ///
    /// Demand passes through unchanged. If encoding an element throws, the publisher cancels the
    /// upstream and fails with the encoder's error; upstream failures are republished as `any
    /// Error`. Encoding runs on the thread that delivers the upstream value. The subscription
    /// keeps the encoder and its subscriber, as Combine's does, until the subscriber lets the
    /// subscription go, completion and cancellation notwithstanding.
    ///
    /// As in Combine, a value or a completion that arrives before the upstream's subscription is
    /// still passed on (the value transformed, a throw failing the subscriber); a request or a
    /// `cancel` before the subscription is ignored.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
    where Upstream.Output: Encodable {
        /// The kind of values published by this publisher: what the encoder produces.
        public typealias Output = Coder.Output

        /// The kind of errors this publisher might publish: an encoding error or the upstream's.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The encoder that encodes elements received from the upstream publisher.
        @usableFromInline
        internal let encoder: Coder

        /// Creates a publisher that encodes elements received from an upstream publisher, using
        /// a given encoder.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - encoder: The encoder that encodes elements received from the upstream publisher.
        @inlinable
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        /// Attaches `subscriber` through a `TrySubscription` subscription described as "Encode".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let encoder = self.encoder
            upstream.subscribe(
                TrySubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "Encode", downstream: subscriber, beforeSubscription: .forwardAll, mirror: .coder
                ) {
                    try encoder.encode($0)
                })
        }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes the output from the upstream using a specified encoder.
    ///
    /// Use it with a `JSONEncoder` (or a `PropertyListEncoder`) to turn values into data.
    /// Demand passes through unchanged; an encoding error cancels the upstream and fails the
    /// publisher with that error.
    /// - Parameter encoder: An encoder that implements the ``TopLevelEncoder`` protocol.
    /// - Returns: A publisher that encodes received elements using a specified encoder, and
    ///   publishes the resulting data.
    @inlinable
    public consuming func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}
