extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher.
    ///
    /// Until the upstream fails, requests, values and its `.finished` pass through. When it
    /// fails, the handler runs on the failing thread, its publisher is subscribed and asked for
    /// the downstream demand the upstream left unmet; from then on requests go to it, and its
    /// values and completion are the downstream's. The downstream keeps one subscription
    /// throughout; cancelling it cancels whichever publisher is current. As in Combine, an
    /// upstream value sent with no demand outstanding traps, so does a second upstream failure,
    /// and the downstream is held until the operator is released. Requesting `.none` traps.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the replacement publisher's.
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that accepts the upstream failure as input and returns a publisher to
        /// replace the upstream publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the
        /// failed publisher with another publisher.
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - handler: A closure that accepts the upstream failure as input and returns a
        ///     publisher to replace the upstream publisher.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber`; signals arrive on the threads of the current publisher.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Upstream.Output, S.Failure == NewPublisher.Failure {
            upstream.subscribe(
                CatchSubscription(name: "Catch", downstream: subscriber, recovery: CatchHandler(handler)))
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// The replacement is subscribed on the thread the failure arrives on and is asked for the
    /// downstream demand the upstream left unmet; see ``Publishers/Catch``.
    /// - Parameter handler: A closure that accepts the upstream failure as input and returns a
    ///   publisher to replace the upstream publisher.
    /// - Returns: A publisher that handles errors from an upstream publisher by replacing the
    ///   failed publisher with another publisher.
    @inlinable
    public consuming func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}
