extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later
    /// elements.
    ///
    /// The subscriber's first request goes upstream with ``count`` more added, for the elements
    /// to omit; later requests and returned demand pass through unchanged. Failures pass through
    /// as `Upstream.Failure`. Signals go out on the thread that delivers the upstream's signal.
    ///
    /// As in Combine, a value (answered with `.none`), a completion, a request or a `cancel` that
    /// comes before the upstream's subscription is ignored.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that omits a specified number of elements before republishing
        /// later elements.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - count: The number of elements to drop; must not be negative.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            precondition(count >= 0, "Publishers.Drop needs a non-negative count, got \(count)")
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber` through a subscription described as "Drop".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let count = self.count
            // The step runs only on the upstream's serial path, so the counter needs no lock.
            var dropped = 0
            upstream.subscribe(
                StepRelay<Output, Failure, S>(name: "Drop", downstream: subscriber, policy: .extraOnFirst(count)) {
                    _ in
                    guard dropped < count else { return .pass }
                    dropped += 1
                    return .skip
                })
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop: Sendable where Upstream: Sendable {}

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// The subscriber's first request goes upstream with `count` more added; later demand passes
    /// through unchanged.
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: A publisher that doesn't republish the first `count` elements.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers.Sequence {
    /// Omits, right away, the first `count` elements of the sequence.
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: A sequence publisher of the remaining elements, with the same failure type.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence(sequence: sequence.dropFirst(count))
    }
}

extension Just {
    /// Publishes the output only if `count` is zero, decided right away.
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst(_:) needs a non-negative count, got \(count)")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }
}
