extension Publishers {
    /// A publisher that transforms all elements from the upstream publisher with a provided
    /// closure.
    ///
    /// Demand passes through unchanged, the subscription is the upstream's own, and failures
    /// pass through as `Upstream.Failure`. The closure runs on the thread that delivers the
    /// upstream value.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that transforms elements from the upstream publisher.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher that transforms all elements from the upstream publisher.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: The closure that transforms elements from the upstream publisher.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(relay: Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.Map {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(transform(input))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Map" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.Map: SubscriberErasing {}

extension Publisher {
    /// Transforms all elements from the upstream publisher with a provided closure.
    ///
    /// Demand and failures pass through unchanged.
    /// - Parameter transform: A closure that takes one element as its parameter and returns a
    ///   new element.
    /// - Returns: A publisher that uses the provided closure to map elements from the upstream
    ///   publisher to new elements that it then publishes.
    @inlinable
    public consuming func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}

extension Publishers.Map {
    /// Fuses two maps into one: `map(f).map(g)` runs `g(f(x))` in a single relay.
    /// - Parameter transform: A closure that takes one element as its parameter and returns a
    ///   new element.
    /// - Returns: One `Map` over the original upstream.
    @inlinable
    public consuming func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
        let first = self.transform
        return Publishers.Map(upstream: upstream) { transform(first($0)) }
    }
}
