extension Publishers {
    /// A publisher that ignores all upstream elements, but passes along the upstream publisher's
    /// completion state (finished or failed).
    ///
    /// On subscription it hands the subscriber the upstream's own subscription and asks the
    /// upstream for `.unlimited` at once, as Combine does: the subscriber can never receive a
    /// value, so its demand is irrelevant. Completions pass through as `Upstream.Failure`, on the
    /// thread that delivers them.
    public struct IgnoreOutput<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: none.
        public typealias Output = Never

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that ignores all upstream elements.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Never, S.Failure == Failure {
            upstream.subscribe(relay: Inner(downstream: subscriber))
        }
    }
}

extension Publishers.IgnoreOutput {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Never, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "IgnoreOutput" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publishers.IgnoreOutput: SubscriberErasing {}

extension Publisher {
    /// Ignores all upstream elements, but passes along the upstream publisher's completion state
    /// (finished or failed).
    ///
    /// Requests `.unlimited` from the upstream as soon as it is subscribed.
    /// - Returns: A publisher that ignores all upstream elements.
    @inlinable
    public consuming func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
        Publishers.IgnoreOutput(upstream: self)
    }
}
