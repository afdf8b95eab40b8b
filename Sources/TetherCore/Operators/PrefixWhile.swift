extension Publishers {
    /// A publisher that republishes elements while a predicate closure indicates publishing
    /// should continue.
    ///
    /// Demand passes through unchanged. On the first element the predicate rejects, it cancels the
    /// upstream and finishes, without delivering that element. Failures pass through as
    /// `Upstream.Failure`. The predicate runs on the thread that delivers the upstream value.
    /// Completion or cancellation releases the predicate; the subscription keeps its subscriber, as
    /// Combine's does, until the subscriber lets the subscription go.
    ///
    /// As in Combine, an upstream that sends a value or a completion before its subscription, or
    /// a request made before then, stops the process; a `cancel` before then cancels the
    /// subscription when it comes.
    public struct PrefixWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether publishing should continue.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes elements while a predicate closure indicates
        /// publishing should continue.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether publishing should continue.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "PrefixWhile".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                VerdictSubscription<Output, Failure, S>(
                    name: "PrefixWhile", downstream: subscriber, beforeSubscription: .trap, mirror: .downstream
                ) {
                    predicate($0) ? .pass : .finish
                })
        }
    }
}

extension Publisher {
    /// Republishes elements while a predicate closure indicates publishing should continue.
    ///
    /// Demand passes through unchanged; the first rejected element cancels the upstream and
    /// finishes the publisher.
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a
    ///   Boolean value that indicates whether publishing should continue.
    /// - Returns: A publisher that passes through elements until the predicate indicates
    ///   publishing should finish.
    @inlinable
    public consuming func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
        Publishers.PrefixWhile(upstream: self, predicate: predicate)
    }
}
