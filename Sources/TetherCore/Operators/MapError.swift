extension Publishers {
    /// A publisher that converts any failure from the upstream publisher into a new error.
    ///
    /// Values and demand pass through unchanged and the subscription is the upstream's own; only
    /// a failure is transformed, on the thread that delivers it.
    public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that converts the upstream failure into a new error.
        public let transform: (Upstream.Failure) -> Failure

        /// Creates a publisher that converts any failure from the upstream publisher into a new
        /// error.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - transform: The closure that converts the upstream failure into a new error.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Creates a publisher that converts any failure from the upstream publisher into a new
        /// error.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - map: The closure that converts the upstream failure into a new error.
        @inlinable
        public init(upstream: Upstream, _ map: @escaping (Upstream.Failure) -> Failure) {
            self.init(upstream: upstream, transform: map)
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

extension Publishers.MapError {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let transform: (Upstream.Failure) -> Failure
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Failure) {
            self.downstream = downstream
            self.transform = transform
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
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished: downstream.receive(completion: .finished)
            case .failure(let error): downstream.receive(completion: .failure(transform(error)))
            }
        }

        @usableFromInline var description: String { "MapError" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.MapError: SubscriberErasing {}

extension Publisher {
    /// Converts any failure from the upstream publisher into a new error.
    ///
    /// Values and demand pass through unchanged.
    /// - Parameter transform: A closure that takes the upstream failure as a parameter and
    ///   returns a new error for the publisher to terminate with.
    /// - Returns: A publisher that replaces any upstream failure with a new error produced by the
    ///   `transform` closure.
    @inlinable
    public consuming func mapError<E: Error>(_ transform: @escaping (Failure) -> E) -> Publishers.MapError<Self, E> {
        Publishers.MapError(upstream: self, transform: transform)
    }
}
