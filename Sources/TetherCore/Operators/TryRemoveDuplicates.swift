extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element, as
    /// evaluated by a provided error-throwing closure.
    ///
    /// Each element is compared with the one received just before it; a duplicate is dropped and
    /// compensated with a demand of one. If the closure throws, the publisher cancels the
    /// upstream and fails with the thrown error; it delivers nothing after that. Upstream
    /// failures are republished as `any Error`. Completion or cancellation releases the
    /// closure and the remembered element; the subscriber is held as long as its subscription,
    /// as Combine holds it.
    ///
    /// As in Combine, an upstream that sends a value or a completion before its subscription, or
    /// a request made before then, stops the process; a `cancel` before then cancels the
    /// subscription when it comes.
    public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure to evaluate whether two elements are equivalent, for
        /// purposes of filtering.
        public let predicate: (Upstream.Output, Upstream.Output) throws -> Bool

        /// Creates a publisher that publishes only elements that don't match the previous
        /// element, as evaluated by a provided error-throwing closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: An error-throwing closure to evaluate whether two elements are
        ///     equivalent, for purposes of filtering. Return `true` from this closure to indicate
        ///     that the second element is a duplicate of the first. If this closure throws an
        ///     error, the publisher terminates with the thrown error.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "TryRemoveDuplicates".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                VerdictSubscription<Output, Upstream.Failure, S>(
                    name: "TryRemoveDuplicates", downstream: subscriber,
                    beforeSubscription: .trap,
                    mirror: .downstreamAnd { _ in [("last", Upstream.Output?.none as Any)] },
                    throwingStep: ValueVerdict.removingDuplicates(by: predicate)))
        }
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided error-throwing closure.
    ///
    /// Dropped duplicates are replaced by a demand of one towards the upstream. If the closure
    /// throws, the upstream is cancelled and the publisher fails with the error.
    /// - Parameter predicate: A closure to evaluate whether two elements are equivalent, for
    ///   purposes of filtering. Return `true` from this closure to indicate that the second
    ///   element is a duplicate of the first. If this closure throws an error, the publisher
    ///   terminates with the thrown error.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    @inlinable
    public consuming func tryRemoveDuplicates(
        by predicate: @escaping (Output, Output) throws -> Bool
    ) -> Publishers.TryRemoveDuplicates<Self> {
        Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
    }
}
