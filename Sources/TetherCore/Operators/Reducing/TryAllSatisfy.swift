extension Publishers {
    /// A publisher that publishes a single Boolean value that indicates whether all received
    /// elements pass a given error-throwing predicate.
    ///
    /// Behaves like ``Publishers/AllSatisfy``; in addition, if the predicate throws, the
    /// publisher cancels the upstream and fails with the error, and nothing follows. Upstream
    /// failures are republished as `any Error`.
    public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: whether every element passed.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that evaluates each received element.
        ///
        /// Return `true` to continue, or `false` to cancel the upstream and complete. The
        /// closure may throw, in which case the publisher cancels the upstream publisher and
        /// fails with the thrown error.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Returns a publisher that publishes a single Boolean value that indicates whether all
        /// received elements pass a given error-throwing predicate.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: A closure that evaluates each received element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "TryAllSatisfy".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Bool, S.Failure == Failure {
            let predicate = self.predicate
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "TryAllSatisfy", downstream: subscriber, initial: true, failure: { $0 }
                ) { (verdict, input) throws(any Error) in
                    if try predicate(input) { return .more }
                    verdict = false
                    return .settled
                })
        }
    }
}

extension Publisher {
    /// Publishes a single Boolean value that indicates whether all received elements pass a
    /// given error-throwing predicate.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes. A failing
    /// element or a throw cancels the upstream.
    /// - Parameter predicate: A closure that evaluates each received element. Return `true` to
    ///   continue, or `false` to cancel the upstream and complete. The closure may throw an
    ///   error, in which case the publisher cancels the upstream publisher and fails with the
    ///   thrown error.
    /// - Returns: A publisher that publishes a Boolean value that indicates whether all received
    ///   elements pass a given predicate.
    @inlinable
    public consuming func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool)
        -> Publishers.TryAllSatisfy<Self>
    {
        Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
    }
}
