extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an
    /// element from second publisher.
    ///
    /// It subscribes to ``other``, then to the upstream, asking `other` for one element. Demand
    /// passes to the upstream unchanged; each element dropped before `other` emits is replaced by
    /// a demand of one. When `other` emits, the publisher cancels `other` and republishes every
    /// later upstream element. A failure of `other` before that cancels the upstream and fails
    /// the publisher; `other` finishing changes nothing. Signals go out on the thread that
    /// delivers the upstream's signal, or `other`'s failure.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's and `other`'s.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from the upstream publisher until it
        /// receives an element from another publisher.
        /// - Parameters:
        ///   - upstream: A publisher to drop elements from while waiting for another publisher
        ///     to emit elements.
        ///   - other: A publisher to monitor for its first emitted element.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches `subscriber` through a subscription described as "DropUntilOutput".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = UntilOutputRelay<Output, Failure, Other.Output, Other.Failure, S>(
                name: "DropUntilOutput", mode: .drop, downstream: subscriber, triggerFailure: { $0 })
            // The trigger first, so that a trigger that fires at once is seen before a
            // synchronous upstream delivers anything.
            other.receive(subscriber: relay.triggerInlet)
            upstream.receive(subscriber: relay)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second
    /// publisher.
    ///
    /// Asks `publisher` for one element and drops upstream elements until it arrives, each
    /// replaced by a demand of one; then cancels `publisher` and republishes the rest.
    /// - Parameter publisher: A publisher to monitor for its first emitted element.
    /// - Returns: A publisher that drops elements from the upstream publisher until the `other`
    ///   publisher produces a value.
    @inlinable
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}
