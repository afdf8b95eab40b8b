extension Publishers {
    /// A publisher that replaces an empty stream with a provided element.
    ///
    /// As in Combine, once the subscriber has its subscription the upstream is asked for
    /// `.unlimited`, and values pass through whatever the subscriber's demand; its requests and
    /// the demand it returns are passed on as well. The subscriber is held for the operator's
    /// whole life. If the upstream finishes without producing any element,
    /// the publisher emits `output` and then finishes; the element needs demand, so if the
    /// subscriber has not asked for anything yet it waits for the first request. Failures pass
    /// through as `Upstream.Failure`. Signals go out on the thread that delivers the upstream's
    /// (or, for a waiting element, on the requesting thread).
    ///
    /// As in Combine, a value (answered with `.none`), a completion, a request or a `cancel` that
    /// comes before the upstream's subscription is ignored.
    public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The element to deliver when the upstream publisher finishes without delivering any
        /// elements.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces an empty stream with a provided element.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element to deliver when the upstream publisher finishes without
        ///     delivering any elements.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` through a `ReplacingSubscription` described as "ReplaceEmpty".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                ReplacingSubscription<Upstream.Failure, S>(
                    name: "ReplaceEmpty", downstream: subscriber, output: output, requestsUnlimited: true
                ) {
                    completion, sawValue in
                    if case .finished = completion, !sawValue { return .substitute }
                    return .forward(completion)
                })
        }
    }
}

extension Publishers.ReplaceEmpty: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces an empty stream with the provided element.
    ///
    /// If the upstream publisher finishes without producing any elements, this publisher emits
    /// the provided element, then finishes normally.
    /// - Parameter output: An element to emit when the upstream publisher finishes without
    ///   emitting any elements.
    /// - Returns: A publisher that replaces an empty stream with the provided output element.
    @inlinable
    public consuming func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
        Publishers.ReplaceEmpty(upstream: self, output: output)
    }
}
