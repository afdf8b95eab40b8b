extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher.
    ///
    /// The upstream is asked for ``maxPublishers`` elements at first, and for one more each
    /// time an inner publisher finishes, so no more than ``maxPublishers`` inner publishers are
    /// subscribed at once. Each inner publisher is asked for one value at a time (for
    /// `.unlimited` when the downstream's demand is unlimited), and its values reach the
    /// downstream one at a time, in arrival order, whichever thread they arrive on: a value that
    /// arrives while another is being delivered, or without downstream demand, waits for the
    /// delivering thread, or for the downstream's next request. The publisher finishes when the
    /// upstream and every inner publisher have finished; a failure from the upstream or any
    /// inner cancels everything else and fails the downstream. Cancelling cancels the upstream
    /// and every inner publisher. Requesting `.none` traps.
    ///
    /// A `Just` from the transform is not subscribed to: its value is at hand, so it is taken at
    /// once, with the same demand, ordering and upstream requests as a subscribed `Just`.
    public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The kind of values published by this publisher: the new publishers'.
        public typealias Output = NewPublisher.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of concurrent publisher subscriptions.
        public let maxPublishers: Subscribers.Demand

        /// A closure that takes an element as a parameter and returns a publisher that produces
        /// elements of that type.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that transforms elements from an upstream publisher into a new
        /// publisher.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - maxPublishers: The maximum number of concurrent publisher subscriptions.
        ///   - transform: A closure that takes an element as a parameter and returns a
        ///     publisher that produces elements of that type.
        @inlinable
        public init(
            upstream: Upstream, maxPublishers: Subscribers.Demand,
            transform: @escaping (Upstream.Output) -> NewPublisher
        ) {
            self.upstream = upstream
            self.maxPublishers = maxPublishers
            self.transform = transform
        }

        /// Attaches `subscriber`; the transform runs on the thread that delivers the upstream
        /// element, and values are delivered on the threads of the inner publishers (or of the
        /// downstream's request, for values that waited).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == NewPublisher.Output, S.Failure == Upstream.Failure {
            upstream.subscribe(
                FlattenStorage<Upstream, NewPublisher, S>(
                    name: "FlatMap", policy: .merge(maxPublishers: maxPublishers), downstream: subscriber,
                    transform: transform))
        }
    }
}

extension Publisher {
    /// Transforms all elements from an upstream publisher into a new publisher up to a maximum
    /// number of publishers you specify.
    ///
    /// The upstream is asked for `maxPublishers` elements, then for one more as each new
    /// publisher finishes; see ``Publishers/FlatMap`` for demand and delivery. Failure of a new
    /// publisher fails the whole stream; its successful completion does not complete it.
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a
    ///   publisher of that element's type.
    @inlinable
    public func flatMap<T, P>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where T == P.Output, P: Publisher, Failure == P.Failure {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher into a new publisher that cannot
    /// fail, up to a maximum number of publishers you specify.
    ///
    /// The new publishers are given the upstream's failure type with
    /// ``Publisher/setFailureType(to:)``; see ``Publishers/FlatMap`` for demand and delivery.
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a
    ///   publisher of that element's type.
    @inlinable
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P: Publisher, P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
            transform($0).setFailureType(to: Failure.self)
        }
    }
}

extension Publisher where Failure == Never {
    /// Transforms all elements from an upstream publisher that cannot fail into a new publisher
    /// that can, up to a maximum number of publishers you specify.
    ///
    /// The upstream is given the new publishers' failure type with
    /// ``Publisher/setFailureType(to:)``; see ``Publishers/FlatMap`` for demand and delivery.
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a
    ///   publisher of that element's type.
    @inlinable
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> where P: Publisher {
        Publishers.FlatMap(
            upstream: setFailureType(to: P.Failure.self), maxPublishers: maxPublishers, transform: transform)
    }

    /// Transforms all elements from an upstream publisher that cannot fail into new publishers
    /// that cannot fail either, up to a maximum number of publishers you specify.
    ///
    /// See ``Publishers/FlatMap`` for demand and delivery.
    /// - Parameters:
    ///   - maxPublishers: Specifies the maximum number of concurrent publisher subscriptions, or
    ///     `.unlimited` if unspecified.
    ///   - transform: A closure that takes an element as a parameter and returns a publisher
    ///     that produces elements of that type.
    /// - Returns: A publisher that transforms elements from an upstream publisher into a
    ///   publisher of that element's type.
    @inlinable
    public func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P: Publisher, P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}
