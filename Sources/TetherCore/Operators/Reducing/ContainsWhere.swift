extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// predicate closure.
    ///
    /// The publisher asks the upstream for `.unlimited` as soon as it is subscribed, before the
    /// subscriber requests anything. The first element that satisfies the predicate cancels the
    /// upstream and publishes `true`; if the upstream finishes first, it publishes `false`. Either
    /// way the value waits for the first request if it has not come yet, then the publisher
    /// finishes. Upstream failures pass through as `Upstream.Failure`. The predicate runs on the
    /// thread that delivers each upstream value.
    public struct ContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether a match was seen.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that determines whether the publisher should consider an element as a
        /// match.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that emits a Boolean value upon receiving an element that
        /// satisfies the predicate closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that determines whether the publisher should consider an
        ///     element as a match.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "ContainsWhere".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Bool, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "ContainsWhere", downstream: subscriber, initial: false, failure: { $0 }
                ) { found, input in
                    guard predicate(input) else { return .more }
                    found = true
                    return .settled
                })
        }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the predicate closure.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes; a match
    /// cancels the upstream.
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a
    ///   Boolean value that indicates whether the element satisfies the closure's comparison
    ///   logic.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher
    ///   emits a matching value.
    @inlinable
    public consuming func contains(where predicate: @escaping (Output) -> Bool) -> Publishers.ContainsWhere<Self> {
        Publishers.ContainsWhere(upstream: self, predicate: predicate)
    }
}
