extension Publishers {
    /// A publisher that republishes elements while an error-throwing predicate closure indicates
    /// publishing should continue.
    ///
    /// Demand passes through unchanged. On the first element the predicate rejects, it cancels
    /// the upstream and finishes; if the predicate throws, it cancels the upstream and fails with
    /// the error. Upstream failures are republished as `any Error`. The predicate runs on the
    /// thread that delivers the upstream value. Completion or cancellation releases the
    /// subscriber and the predicate.
    ///
    /// As in Combine, an upstream that sends a value or a completion before its subscription, or
    /// a request made before then, stops the process; a `cancel` before then cancels the
    /// subscription when it comes.
    public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes elements while an error-throwing predicate
        /// closure indicates publishing should continue.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that determines whether publishing should
        ///     continue.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "TryPrefixWhile".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                VerdictSubscription<Output, Upstream.Failure, S>(
                    name: "TryPrefixWhile", downstream: subscriber, beforeSubscription: .trap, mirror: .downstream
                ) { value in
                    do { return try predicate(value) ? .pass : .finish } catch { return .fail(error) }
                })
        }
    }
}

extension Publisher {
    /// Republishes elements while an error-throwing predicate closure indicates publishing
    /// should continue.
    ///
    /// Demand passes through unchanged. If the closure throws, the upstream is cancelled and the
    /// publisher fails with the thrown error.
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a
    ///   Boolean value indicating whether publishing should continue, or throws.
    /// - Returns: A publisher that passes through elements until the predicate throws or
    ///   indicates publishing should finish.
    @inlinable
    public consuming func tryPrefix(while predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryPrefixWhile<Self>
    {
        Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
    }
}
