extension Publishers {
    /// A publisher that flattens nested publishers.
    ///
    /// Given a publisher that publishes publishers, it produces the events of only the most
    /// recent one. The subscriber gets its subscription at once, before the upstream's arrives.
    /// The upstream is asked for `.unlimited` publishers; when a new one arrives the previous
    /// one is cancelled, and the new one is asked for the downstream demand still outstanding
    /// (later requests go to it directly). Values reach the downstream one at a time, on the
    /// inner publisher's thread; the demand the subscriber returns for one is returned to that
    /// inner publisher, and values a replaced publisher still sends are dropped. The publisher
    /// finishes when the upstream and the current inner publisher have both finished; a failure
    /// from either cancels the other and fails the downstream. Cancelling cancels the current
    /// inner publisher, then the upstream. Requesting `.none` traps.
    ///
    /// As in Combine: an inner value sent with no demand outstanding traps, as does an inner
    /// completion before the inner's subscription; the subscriber is held for the
    /// subscription's whole life; and, since Combine keeps no terminal state here, an inner's
    /// values still arrive after the upstream failed and every completion the upstream sends
    /// goes downstream.
    public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
    where P == Upstream.Output, P.Failure == Upstream.Failure {
        /// The kind of values published by this publisher: the inner publishers'.
        public typealias Output = P.Output

        /// The kind of errors this publisher might publish: the upstream's, which the inner
        /// publishers share.
        public typealias Failure = P.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that "flattens" nested publishers.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber`; values are delivered on the threads of the inner publishers.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == P.Output, S.Failure == P.Failure {
            let subscription = SwitchSubscription<Upstream, S>(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            upstream.subscribe(subscription)
        }
    }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
    /// Republishes elements sent by the most recently received publisher.
    ///
    /// It flattens the stream of publishers into one stream of their elements. When it receives
    /// a new publisher from the upstream publisher, it cancels its previous subscription; see
    /// ``Publishers/SwitchToLatest`` for demand and delivery.
    /// - Returns: A publisher of the elements of the most recent inner publisher.
    @inlinable
    public consuming func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Failure == Never {
    /// Republishes elements sent by the most recently received publisher, from an upstream that
    /// cannot fail.
    ///
    /// The upstream is given the inner publishers' failure type with
    /// ``Publisher/setFailureType(to:)``; see ``Publishers/SwitchToLatest``.
    /// - Returns: A publisher of the elements of the most recent inner publisher.
    @inlinable
    public func switchToLatest() -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>> {
        Publishers.SwitchToLatest(upstream: setFailureType(to: Output.Failure.self))
    }
}

extension Publisher where Failure == Never, Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, where neither the
    /// upstream nor the inner publishers can fail.
    ///
    /// See ``Publishers/SwitchToLatest``.
    /// - Returns: A publisher of the elements of the most recent inner publisher.
    @inlinable
    public consuming func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
        Publishers.SwitchToLatest(upstream: self)
    }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
    /// Republishes elements sent by the most recently received publisher, where the inner
    /// publishers cannot fail.
    ///
    /// Each inner publisher is given the upstream's failure type with
    /// ``Publisher/setFailureType(to:)``; see ``Publishers/SwitchToLatest``.
    /// - Returns: A publisher of the elements of the most recent inner publisher.
    @inlinable
    public func switchToLatest()
        -> Publishers.SwitchToLatest<
            Publishers.SetFailureType<Output, Failure>, Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
        >
    {
        map { $0.setFailureType(to: Failure.self) }.switchToLatest()
    }
}
