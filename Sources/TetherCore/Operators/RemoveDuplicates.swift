extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    ///
    /// Each element is compared with the one received just before it (published or not); a
    /// duplicate is dropped and compensated with a demand of one, so the subscriber's demand
    /// counts only the elements it receives; requests pass through unchanged. Failures pass
    /// through as `Upstream.Failure`. The predicate runs on the thread that delivers the upstream
    /// value.
    ///
    /// As in Combine, the subscriber gets a subscription of the operator's own, which it holds
    /// until the subscriber lets go of it; a second subscription from the upstream is cancelled.
    /// An upstream that sends a value or a completion before its subscription, or a request made
    /// before then, stops the process; a `cancel` before then cancels the subscription when it
    /// comes.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
        public let predicate: (Upstream.Output, Upstream.Output) -> Bool

        /// Creates a publisher that publishes only elements that don't match the previous
        /// element, as evaluated by a provided closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: A closure to evaluate whether two elements are equivalent, for
        ///     purposes of filtering. Return `true` from this closure to indicate that the second
        ///     element is a duplicate of the first.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "RemoveDuplicates".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                VerdictSubscription<Output, Failure, S>(
                    name: "RemoveDuplicates", downstream: subscriber, beforeSubscription: .trap,
                    mirror: .downstreamAnd { _ in [("last", Output?.none as Any)] },
                    step: ValueVerdict.removingDuplicates(by: predicate)))
        }
    }
}

extension ValueVerdict {
    /// The step of `removeDuplicates` and `tryRemoveDuplicates`: an element that `predicate`
    /// calls a duplicate of the one received just before it (published or not) is dropped and
    /// replaced by a demand of one; a thrown error ends the stream.
    ///
    /// The remembered element lives in the step's context, touched only on the relay's serial
    /// path, so comparing takes no lock, and its accesses are not checked at run time (a captured
    /// `var` costs two dynamic exclusivity checks per element).
    @inlinable
    package static func removingDuplicates<Input, PredicateFailure: Error>(
        by predicate: @escaping (Input, Input) throws(PredicateFailure) -> Bool
    ) -> (Input) -> ValueVerdict {
        let last = SerialVariable<Input?>(nil)
        return { input in
            defer { last.value = input }
            guard let previous = last.value else { return .pass }
            do {
                return try predicate(previous, input) ? .skipAndReplace : .pass
            } catch {
                return .fail(error)
            }
        }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    ///
    /// Dropped duplicates are replaced by a demand of one towards the upstream.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    @inlinable
    public consuming func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: ==)
    }
}

extension Publisher {
    /// Publishes only elements that don't match the previous element, as evaluated by a
    /// provided closure.
    ///
    /// Dropped duplicates are replaced by a demand of one towards the upstream.
    /// - Parameter predicate: A closure to evaluate whether two elements are equivalent, for
    ///   purposes of filtering. Return `true` from this closure to indicate that the second
    ///   element is a duplicate of the first.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    @inlinable
    public consuming func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}
