extension Publishers {
    /// A publisher that transforms elements from an upstream publisher into a new publisher.
    ///
    /// As in Combine, the subscriber receives its subscription before the upstream is
    /// subscribed to; publishers and a completion the upstream sends before its subscription
    /// are taken as they would be after it. The upstream is asked for ``maxPublishers``
    /// elements (even `.none`) when its subscription arrives, and for one more each time an
    /// inner publisher finishes (every finish counts, even a second one from the same inner),
    /// so no more than ``maxPublishers`` inner publishers are subscribed at once.
    ///
    /// Each inner publisher is asked for one value at a time, and for `.unlimited` once the
    /// downstream's demand is unlimited (inners already running are asked then, after the
    /// values that waited are delivered). Values reach the downstream one at a time, in arrival
    /// order, whichever thread they arrive on: a value that arrives while another is being
    /// delivered waits for the delivering thread, and one without downstream demand waits for
    /// the downstream's next request. A waiting value that had demand to spare when it arrived
    /// has its inner asked for the next at once, through the demand its `receive` returns, as
    /// Combine does for a value sent from inside a call into the subscriber. A value from an
    /// inner that has already finished is still delivered.
    ///
    /// The publisher finishes when the upstream and every inner publisher have finished. An
    /// upstream failure cancels every inner, then fails the downstream, dropping the values
    /// that were waiting for demand; an upstream that completes again while the inners are
    /// being cancelled traps, as in Combine. An inner's failure cancels the other inners and
    /// fails the downstream; the upstream is let go of without being cancelled, as in Combine.
    /// A value an inner sends while the downstream is receiving the completion reaches it
    /// after the completion, if demand remains. Cancelling cancels every inner publisher, then
    /// the upstream. Requesting `.none` traps.
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
        public func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == NewPublisher.Output, S.Failure == Upstream.Failure {
            let subscription = FlattenSubscription<Upstream, NewPublisher, S>(
                name: "FlatMap", maxPublishers: maxPublishers, downstream: subscriber, transform: transform)
            subscription.start()
            upstream.subscribe(subscription)
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
    public consuming func flatMap<T, P>(
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
    public consuming func flatMap<P>(
        maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMap<P, Self> where P: Publisher, P.Failure == Never {
        Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
    }
}
