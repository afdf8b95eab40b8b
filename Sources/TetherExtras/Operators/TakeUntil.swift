import TetherCore

extension Publisher {
    /// Republishes values until one satisfies `predicate`, then finishes; with `inclusive`, that
    /// value is published before the finish.
    ///
    /// RxSwift's `take(until:behavior:)`. Combine's `prefix(while:)` is the exclusive form with
    /// the predicate negated; the inclusive form is what it cannot express: the value that ends
    /// the stream is delivered too. On the ending value the upstream is cancelled.
    ///
    /// Demand passes through unchanged. Failure type: this publisher's; a failure before the
    /// ending value passes through. Values and the finish are delivered on the thread that
    /// delivers this publisher's values. Completion or cancellation releases the subscriber and
    /// the predicate.
    /// - Parameters:
    ///   - predicate: Whether a value ends the stream; it runs on the thread that delivers it.
    ///   - inclusive: Whether the value that ends the stream is published; `false` by default.
    /// - Returns: A publisher of the values up to (and, if `inclusive`, including) the first
    ///   that satisfies `predicate`.
    @inlinable
    public consuming func take(until predicate: @escaping (Output) -> Bool, inclusive: Bool = false)
        -> Publishers.TakeUntil<Self>
    {
        Publishers.TakeUntil(upstream: self, inclusive: inclusive, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that republishes values until one satisfies a predicate, then finishes,
    /// publishing that value first when ``inclusive``.
    ///
    /// Demand passes through unchanged; the ending value cancels the upstream.
    public struct TakeUntil<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives values.
        public let upstream: Upstream

        /// Whether the value that ends the stream is published.
        public let inclusive: Bool

        /// Whether a value ends the stream.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes values until one satisfies `predicate`.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives values.
        ///   - inclusive: Whether the value that ends the stream is published.
        ///   - predicate: Whether a value ends the stream.
        @inlinable
        public init(upstream: Upstream, inclusive: Bool, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.inclusive = inclusive
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "TakeUntil".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            let ending: ValueVerdict = inclusive ? .passAndFinish : .finish
            upstream.receive(
                subscriber:
                    VerdictSubscription<Output, Failure, S>(name: "TakeUntil", downstream: subscriber) {
                        predicate($0) ? ending : .pass
                    })
        }
    }
}
