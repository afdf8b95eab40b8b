extension Publishers {
    /// A publisher that publishes the values of three key paths as a tuple.
    ///
    /// Demand passes through unchanged, the subscription is the upstream's own, and failures
    /// pass through as `Upstream.Failure`. The key paths are read on the thread that delivers the
    /// upstream value.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        /// The kind of values published by this publisher: one value per key path.
        public typealias Output = (Output0, Output1, Output2)

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>

        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// The key path of a third property to publish.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        // Not public: as in Combine, `map(_:_:_:)` with key paths is the way to make one.
        @inlinable
        internal init(
            upstream: Upstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                relay: Inner(downstream: subscriber, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
            )
        }
    }
}

extension Publishers.MapKeyPath3 {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let reader0: KeyPathReader<Upstream.Output, Output0>
        @usableFromInline let reader1: KeyPathReader<Upstream.Output, Output1>
        @usableFromInline let reader2: KeyPathReader<Upstream.Output, Output2>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(
            downstream: Downstream,
            keyPath0: KeyPath<Upstream.Output, Output0>,
            keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.downstream = downstream
            reader0 = KeyPathReader(keyPath0)
            reader1 = KeyPathReader(keyPath1)
            reader2 = KeyPathReader(keyPath2)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive((reader0.read(input), reader1.read(input), reader2.read(input)))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "ValueForKeys" }

        @usableFromInline var customMirror: Mirror {
            Mirror(
                self, children: ["keyPath0": reader0.keyPath, "keyPath1": reader1.keyPath, "keyPath2": reader2.keyPath])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.MapKeyPath3: SubscriberErasing {}

extension Publisher {
    /// Publishes the values of three key paths as a tuple.
    ///
    /// Demand and failures pass through unchanged.
    /// - Parameters:
    ///   - keyPath0: The key path of a property on `Output`.
    ///   - keyPath1: The key path of a second property on `Output`.
    ///   - keyPath2: The key path of a third property on `Output`.
    /// - Returns: A publisher that publishes the values of three key paths as a tuple.
    @inlinable
    public consuming func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
