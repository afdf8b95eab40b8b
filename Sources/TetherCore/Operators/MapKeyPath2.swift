extension Publishers {
    /// A publisher that publishes the values of two key paths as a tuple.
    ///
    /// Demand passes through unchanged, the subscription is the upstream's own, and failures
    /// pass through as `Upstream.Failure`. The key paths are read on the thread that delivers the
    /// upstream value.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        /// The kind of values published by this publisher: one value per key path.
        public typealias Output = (Output0, Output1)

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        // Not public: as in Combine, `map(_:_:)` with key paths is the way to make one.
        @inlinable
        internal init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(relay: Inner(downstream: subscriber, keyPath0: keyPath0, keyPath1: keyPath1))
        }
    }
}

extension Publishers.MapKeyPath2 {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let reader0: KeyPathReader<Upstream.Output, Output0>
        @usableFromInline let reader1: KeyPathReader<Upstream.Output, Output1>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(
            downstream: Downstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>
        ) {
            self.downstream = downstream
            reader0 = KeyPathReader(keyPath0)
            reader1 = KeyPathReader(keyPath1)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive((reader0.read(input), reader1.read(input)))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "ValueForKeys" }

        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["keyPath0": reader0.keyPath, "keyPath1": reader1.keyPath])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.MapKeyPath2: SubscriberErasing {}

extension Publisher {
    /// Publishes the values of two key paths as a tuple.
    ///
    /// Demand and failures pass through unchanged.
    /// - Parameters:
    ///   - keyPath0: The key path of a property on `Output`.
    ///   - keyPath1: The key path of another property on `Output`.
    /// - Returns: A publisher that publishes the values of two key paths as a tuple.
    @inlinable
    public consuming func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }
}
