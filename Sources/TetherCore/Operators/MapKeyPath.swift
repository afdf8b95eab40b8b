extension Publishers {
    /// A publisher that publishes the value of a key path.
    ///
    /// Demand passes through unchanged, the subscription is the upstream's own, and failures
    /// pass through as `Upstream.Failure`. The key path is read on the thread that delivers the
    /// upstream value.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath: KeyPath<Upstream.Output, Output>

        // Not public: as in Combine, `map(_:)` with a key path is the way to make one.
        @inlinable
        internal init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(relay: Inner(downstream: subscriber, keyPath: keyPath))
        }
    }
}

extension Publishers.MapKeyPath {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let reader: KeyPathReader<Upstream.Output, Output>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.downstream = downstream
            reader = KeyPathReader(keyPath)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(reader.read(input))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "ValueForKey" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: ["keyPath": reader.keyPath]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.MapKeyPath: SubscriberErasing {}

extension Publisher {
    /// Publishes the value of a key path.
    ///
    /// Demand and failures pass through unchanged.
    /// - Parameter keyPath: The key path of a property on `Output`.
    /// - Returns: A publisher that publishes the value of the key path.
    @inlinable
    public consuming func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }
}
