extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given predicate.
    ///
    /// The publisher asks the upstream for `.unlimited` as soon as it is subscribed, before the
    /// subscriber requests anything. The first element that fails the predicate cancels the
    /// upstream and publishes `false`; if the upstream finishes first, it publishes `true` (also
    /// for an empty upstream). Either way the value waits for the first request if it has not come
    /// yet, then the publisher finishes. Upstream failures pass through as `Upstream.Failure`. The
    /// predicate runs on the thread that delivers each upstream value.
    public struct AllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether every element passed.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        ///
        /// Return `true` to continue, or `false` to cancel the upstream and finish.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that publishes a single Boolean value that indicates whether all
        /// received elements pass a given predicate.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: A closure that evaluates each received element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "AllSatisfy".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Bool, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "AllSatisfy", downstream: subscriber, initial: true, failure: { $0 }
                ) { verdict, input in
                    if predicate(input) { return .more }
                    verdict = false
                    return .settled
                })
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given predicate.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes; the first
    /// failing element cancels the upstream.
    /// - Parameter predicate: A closure that evaluates each received element. Return `true` to
    ///   continue, or `false` to cancel the upstream and complete.
    /// - Returns: A publisher that publishes a Boolean value that indicates whether all received
    ///   elements pass a given predicate.
    @inlinable
    public consuming func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
        Publishers.AllSatisfy(upstream: self, predicate: predicate)
    }
}
