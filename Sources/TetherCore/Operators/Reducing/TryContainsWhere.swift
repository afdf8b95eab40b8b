extension Publishers {
    /// A publisher that emits a Boolean value upon receiving an element that satisfies the
    /// throwing predicate closure.
    ///
    /// Behaves like ``Publishers/ContainsWhere``; in addition, if the predicate throws, the
    /// publisher cancels the upstream and fails with the error, and nothing follows. Upstream
    /// failures are republished as `any Error`.
    public struct TryContainsWhere<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether a match was seen.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that determines whether this publisher should emit a
        /// `true` element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that emits a Boolean value upon receiving an element that
        /// satisfies the throwing predicate closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that determines whether this publisher
        ///     should emit a `true` element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as
        /// "TryContainsWhere".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Bool, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "TryContainsWhere", downstream: subscriber, initial: false, failure: { $0 }
                ) { (found, input) throws(any Error) in
                    guard try predicate(input) else { return .more }
                    found = true
                    return .settled
                })
        }
    }
}

extension Publisher {
    /// Publishes a Boolean value upon receiving an element that satisfies the throwing predicate
    /// closure.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes; a match
    /// or a throw cancels the upstream.
    /// - Parameter predicate: A closure that takes an element as its parameter and returns a
    ///   Boolean value that indicates whether the element satisfies the closure's comparison
    ///   logic.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher
    ///   emits a matching value, or fails with the error the closure throws.
    @inlinable
    public consuming func tryContains(where predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryContainsWhere<Self>
    {
        Publishers.TryContainsWhere(upstream: self, predicate: predicate)
    }
}
