extension Publishers {
    /// A publisher that republishes all elements that match a provided closure.
    ///
    /// Each element the closure rejects is compensated with a demand of one, so the subscriber's
    /// demand counts only elements it receives. The subscription is the upstream's own; failures
    /// pass through as `Upstream.Failure`.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that indicates whether to republish an element.
        public let isIncluded: (Upstream.Output) -> Bool

        /// Creates a publisher that republishes all elements that match a provided closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - isIncluded: A closure that indicates whether to republish an element.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(relay: Inner(downstream: subscriber, isIncluded: isIncluded))
        }
    }
}

extension Publishers.Filter {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let isIncluded: (Upstream.Output) -> Bool
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
            self.downstream = downstream
            self.isIncluded = isIncluded
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            isIncluded(input) ? downstream.receive(input) : .max(1)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Filter" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.Filter: SubscriberErasing {}

extension Publisher {
    /// Republishes all elements that match a provided closure.
    ///
    /// Rejected elements are replaced by a demand of one towards the upstream.
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value
    ///   indicating whether to republish the element.
    /// - Returns: A publisher that republishes all elements that satisfy the closure.
    @inlinable
    public consuming func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers.Filter {
    /// Fuses two filters into one: `filter(p).filter(q)` tests `p(x) && q(x)` in a single relay.
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value
    ///   indicating whether to republish the element.
    /// - Returns: One `Filter` over the original upstream.
    @inlinable
    public consuming func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
        let first = self.isIncluded
        return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
    }
}
