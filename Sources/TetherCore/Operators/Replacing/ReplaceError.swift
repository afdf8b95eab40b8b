extension Publishers {
    /// A publisher that replaces any errors in the stream with a provided element.
    ///
    /// Values and demand pass through. If the upstream fails, the publisher emits `output` and
    /// then finishes normally; the element needs demand, so if the subscriber has none
    /// outstanding it waits for the next request. The publisher never fails (`Never`). Signals
    /// go out on the thread that delivers the upstream's (or, for a waiting element, on the
    /// requesting thread).
    ///
    /// As in Combine, a value (answered with `.none`), a completion, a request or a `cancel` that
    /// comes before the upstream's subscription is ignored, a value sent with no demand
    /// outstanding traps, and the subscriber is held for the operator's whole life.
    public struct ReplaceError<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: none.
        public typealias Failure = Never

        /// The element with which to replace errors from the upstream publisher.
        public let output: Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that replaces any errors in the stream with a provided element.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element with which to replace errors from the upstream publisher.
        @inlinable
        public init(upstream: Upstream, output: Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` through a `ReplacingSubscription` described as "ReplaceError".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(
                ReplacingSubscription<Upstream.Failure, S>(
                    name: "ReplaceError", downstream: subscriber, output: output, trapsWithoutDemand: true
                ) {
                    completion, _ in
                    if case .failure = completion { return .substitute }
                    return .forward(.finished)
                })
        }
    }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {}

extension Publisher {
    /// Replaces any errors in the stream with the provided element.
    ///
    /// If the upstream publisher fails with an error, this publisher emits the provided element,
    /// then finishes normally.
    /// - Parameter output: An element to emit when the upstream publisher fails.
    /// - Returns: A publisher that replaces an error from the upstream publisher with the
    ///   provided output element.
    @inlinable
    public consuming func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
        Publishers.ReplaceError(upstream: self, output: output)
    }
}
