extension Publishers {
    /// A publisher that appears to send a specified failure type.
    ///
    /// The publisher can't actually fail with the specified type and finishes normally. Use it
    /// when you need to match the error types of two mismatched publishers. Demand, values and
    /// the subscription are the upstream's own; everything arrives on the upstream's threads.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher
    where Upstream.Failure == Never {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        // `upstream` is the only stored property: the flattening operators read the value of a Just
        // given a failure type where it lies (valueOfJust). Keep it so.
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that appears to send a specified failure type.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(relay: Inner(downstream: subscriber))
        }

        /// Changes the failure type again, without another relay.
        /// - Parameter failure: The `Failure` type presented by the new publisher.
        /// - Returns: A publisher over the same upstream that appears to send `E`.
        @inlinable
        public consuming func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType<Upstream, E>(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Never>) {
            downstream.receive(completion: .finished)
        }

        @usableFromInline var description: String { "SetFailureType" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publishers.SetFailureType: SubscriberErasing {}

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher.
    ///
    /// Use it when you need to set the error type of a publisher that cannot fail; demand and
    /// values pass through unchanged, and the upstream's `.finished` is forwarded as is.
    /// - Parameter failureType: The `Failure` type presented by this publisher.
    /// - Returns: A publisher that appears to send the specified failure type.
    @inlinable
    public consuming func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType<Self, E>(upstream: self)
    }
}
