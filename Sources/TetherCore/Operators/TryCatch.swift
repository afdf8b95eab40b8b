extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed
    /// publisher with another publisher or producing a new error.
    ///
    /// Because the handler can throw, the failure type is `any Error`, unlike
    /// ``Publishers/Catch``, which takes the replacement publisher's. Until the upstream fails,
    /// requests, values and its `.finished` pass through. When it fails, the handler runs on the
    /// failing thread; if it throws, the downstream fails with the thrown error; otherwise its
    /// publisher is subscribed and asked for the downstream demand the upstream left unmet, and
    /// takes over. Cancelling cancels whichever publisher is current. As in Combine, an upstream
    /// value sent with no demand outstanding traps, so does a second upstream failure, and the
    /// downstream is held until the operator is released. Requesting `.none` traps.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: any error.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives its elements.
        public let upstream: Upstream

        /// A closure that accepts the upstream failure as input and either returns a publisher
        /// to replace the upstream publisher, or throws.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the
        /// failed publisher with another publisher or by throwing an error.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives its elements.
        ///   - handler: A closure that accepts the upstream failure as input and returns a
        ///     publisher to replace the upstream publisher. If this closure throws an error,
        ///     the publisher terminates with the thrown error.
        @inlinable
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches `subscriber`; signals arrive on the threads of the current publisher.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Upstream.Output, S.Failure == any Error {
            upstream.subscribe(
                CatchSubscription(name: "TryCatch", downstream: subscriber, recovery: TryCatchHandler(handler)))
        }
    }
}

extension Publisher {
    /// Handles errors from an upstream publisher by either replacing it with another publisher
    /// or throwing a new error.
    ///
    /// The handler runs on the thread the failure arrives on; a replacement is asked for the
    /// downstream demand the upstream left unmet. See ``Publishers/TryCatch``.
    /// - Parameter handler: A throwing closure that accepts the upstream failure as input. This
    ///   closure can either replace the upstream publisher with a new one, or throw a new error
    ///   to the downstream subscriber.
    /// - Returns: A publisher that handles errors from an upstream publisher by replacing the
    ///   failed publisher with another publisher, or an error.
    @inlinable
    public consuming func tryCatch<P: Publisher>(
        _ handler: @escaping (Failure) throws -> P
    ) -> Publishers.TryCatch<Self, P> where Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}
