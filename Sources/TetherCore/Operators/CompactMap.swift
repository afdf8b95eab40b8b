extension Publishers {
    /// A publisher that republishes all non-nil results of calling a closure with each received
    /// element.
    ///
    /// Each `nil` result is compensated with a demand of one, so the subscriber's demand counts
    /// only elements it receives. The subscription is the upstream's own; failures pass through
    /// as `Upstream.Failure`. The closure runs on the thread that delivers the upstream value.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that receives values from the upstream publisher and returns optional
        /// values.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher that republishes all non-`nil` results of calling a closure with
        /// each received element.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: A closure that receives values from the upstream publisher and returns
        ///     optional values.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
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

extension Publishers.CompactMap {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Output) -> Output?
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.downstream = downstream
            self.transform = transform
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let output = transform(input) else { return .max(1) }
            return downstream.receive(output)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "CompactMap" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.CompactMap: SubscriberErasing {}

extension Publisher {
    /// Calls a closure with each received element and publishes any returned optional that has
    /// a value.
    ///
    /// `nil` results are replaced by a demand of one towards the upstream; failures pass through
    /// unchanged.
    /// - Parameter transform: A closure that receives a value and returns an optional value.
    /// - Returns: A publisher that republishes all non-`nil` results of calling the transform.
    @inlinable
    public consuming func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}

extension Publishers.CompactMap {
    /// Fuses two compacting maps into one: `compactMap(f).compactMap(g)` runs `f(x).flatMap(g)`
    /// in a single relay.
    /// - Parameter transform: A closure that receives a value and returns an optional value.
    /// - Returns: One `CompactMap` over the original upstream.
    @inlinable
    public consuming func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
    }

    /// Fuses a compacting map and a map into one: `compactMap(f).map(g)` runs `f(x).map(g)` in a
    /// single relay.
    /// - Parameter transform: A closure that takes one element as its parameter and returns a
    ///   new element.
    /// - Returns: One `CompactMap` over the original upstream.
    @inlinable
    public consuming func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
        let first = self.transform
        return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
    }
}
