extension Publishers {
    /// A publisher that publishes only elements that don't match the previous element.
    ///
    /// Each element is compared with the one received just before it (published or not); a
    /// duplicate is dropped and compensated with a demand of one, so the subscriber's demand
    /// counts only the elements it receives. The subscription is the upstream's own; failures
    /// pass through as `Upstream.Failure`. The predicate runs on the thread that delivers the
    /// upstream value.
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

        /// Attaches `subscriber` through a relay that remembers the previous element.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.RemoveDuplicates {
    /// The relay: a class only because the previous element must persist between values. The
    /// upstream's signals are serial, so it needs no lock.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let predicate: (Upstream.Output, Upstream.Output) -> Bool
        @usableFromInline var previous: Upstream.Output?

        @inlinable
        init(downstream: Downstream, predicate: @escaping (Upstream.Output, Upstream.Output) -> Bool) {
            self.downstream = downstream
            self.predicate = predicate
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            defer { previous = input }
            if let previous, predicate(previous, input) {
                return .max(1)
            }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "RemoveDuplicates" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publisher where Output: Equatable {
    /// Publishes only elements that don't match the previous element.
    ///
    /// Dropped duplicates are replaced by a demand of one towards the upstream.
    /// - Returns: A publisher that consumes — rather than publishes — duplicate elements.
    @inlinable
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
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
    public func removeDuplicates(
        by predicate: @escaping (Output, Output) -> Bool
    ) -> Publishers.RemoveDuplicates<Self> {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}
