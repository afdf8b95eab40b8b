import TetherCore

extension Publisher {
    /// Transforms a value into a publisher and republishes its values, dropping the values that
    /// arrive while that publisher is active.
    ///
    /// The first value makes an inner publisher; until it finishes, further values of this
    /// publisher are dropped (their transform is never called). The next value after it finishes
    /// makes the next inner publisher. The publisher finishes when this publisher and the active
    /// inner publisher (if any) have both finished.
    ///
    /// Demand: this publisher is asked for `.unlimited`, since dropping is the point; the
    /// downstream's demand goes to the active inner publisher, and an inner publisher is asked at
    /// once for the demand the previous ones left unmet. Failure type: this publisher's, which the
    /// inner publishers share; a failure of either cancels the other and fails the downstream.
    /// Values are delivered on the thread the inner publisher delivers them on; a failure of this
    /// publisher on its own thread, or, if a value is being delivered at that moment, right after
    /// it on that value's thread. Cancelling cancels this publisher and the active inner one.
    /// - Parameter transform: A closure making the publisher for a value; it runs on the thread
    ///   that delivers this publisher's values.
    /// - Returns: A publisher of the values of each inner publisher that was made.
    @inlinable
    public consuming func flatMapFirst<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMapFirst<P, Self> where P.Failure == Failure {
        Publishers.FlatMapFirst(upstream: self, transform: transform)
    }

    /// Transforms a value into a publisher that cannot fail and republishes its values, dropping
    /// the values that arrive while that publisher is active.
    ///
    /// The inner publishers are given this publisher's failure type with
    /// ``Publisher/setFailureType(to:)``; demand, completion and delivery are as in
    /// `flatMapFirst(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the values of each inner publisher that was made.
    @inlinable
    public func flatMapFirst<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMapFirst<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
        Publishers.FlatMapFirst(upstream: self) { transform($0).setFailureType(to: Failure.self) }
    }
}

extension Publisher where Failure == Never {
    /// Transforms each value of a publisher that cannot fail into a publisher that can, dropping
    /// the values that arrive while that publisher is active.
    ///
    /// This publisher is given the inner publishers' failure type with
    /// ``Publisher/setFailureType(to:)``; demand, completion and delivery are as in
    /// `flatMapFirst(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the values of each inner publisher that was made.
    @inlinable
    public func flatMapFirst<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMapFirst<P, Publishers.SetFailureType<Self, P.Failure>> {
        Publishers.FlatMapFirst(upstream: setFailureType(to: P.Failure.self), transform: transform)
    }

    /// Transforms each value of a publisher that cannot fail into a publisher that cannot fail
    /// either, dropping the values that arrive while that publisher is active.
    ///
    /// Demand, completion and delivery are as in `flatMapFirst(_:)`.
    /// - Parameter transform: A closure making the publisher for a value.
    /// - Returns: A publisher of the values of each inner publisher that was made.
    @inlinable
    public consuming func flatMapFirst<P: Publisher>(
        _ transform: @escaping (Output) -> P
    ) -> Publishers.FlatMapFirst<P, Self> where P.Failure == Never {
        Publishers.FlatMapFirst(upstream: self, transform: transform)
    }
}

extension Publishers {
    /// A publisher that republishes the values of one inner publisher at a time, dropping the
    /// upstream values that arrive while an inner publisher is active.
    ///
    /// The upstream is asked for `.unlimited`; the downstream's demand goes to the active inner
    /// publisher. It finishes once the upstream and the active inner publisher have finished,
    /// fails with the first failure of either, and cancels both when cancelled.
    public struct FlatMapFirst<NewPublisher: Publisher, Upstream: Publisher>: Publisher
    where NewPublisher.Failure == Upstream.Failure {
        /// The kind of values published by this publisher: the inner publishers'.
        public typealias Output = NewPublisher.Output

        /// The kind of errors this publisher might publish: the upstream's (and the inner
        /// publishers').
        public typealias Failure = Upstream.Failure

        /// The publisher whose values make the inner publishers.
        public let upstream: Upstream

        /// The closure making an inner publisher from an upstream value.
        public let transform: (Upstream.Output) -> NewPublisher

        /// Creates a publisher that flattens one inner publisher at a time, dropping upstream
        /// values while one is active.
        /// - Parameters:
        ///   - upstream: The publisher whose values make the inner publishers.
        ///   - transform: The closure making an inner publisher from an upstream value.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> NewPublisher) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches `subscriber` through a subscription described as "FlatMapFirst".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: Inner(downstream: subscriber, transform: transform))
        }
    }
}

extension Publishers.FlatMapFirst {
    /// The subscription: the upstream's subscriber, and (through a ``Side``) each inner
    /// publisher's. What each signal does is decided by a ``FlatMapFirstState`` under the lock
    /// and done once it is released, so that no call out is made under it.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline typealias State = FlatMapFirstState<Downstream, (Upstream.Output) -> NewPublisher>

        /// Hands an inner value to the downstream. Made in the initialiser, so that each
        /// `flatMapFirst` of a chain reaches the next one through it: called directly, nested
        /// levels form one ever-deeper chain of specialisations, which the compiler cuts off
        /// (the third of five levels then ran unspecialised).
        @usableFromInline
        internal let deliver: (Downstream, Output) -> Subscribers.Demand

        @usableFromInline
        internal let state: Locked<State>

        @inlinable
        internal init(downstream: Downstream, transform: @escaping (Upstream.Output) -> NewPublisher) {
            deliver = { downstream, value in downstream.receive(value) }
            state = Locked(State(downstream: downstream, transform: transform))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func receive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.upstreamSubscribed(subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        internal func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            // Most values are dropped while an inner publisher is active: only an accepted one
            // takes the closure out of the lock.
            guard let transform = state.withLock({ $0.upstreamValue() }) else { return .none }
            transform(input).receive(subscriber: Side(self))
            return .none
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>) {
            state.withLock { $0.upstreamCompleted(completion) }?.perform()
        }

        @inlinable
        internal func sideReceive(_: Int, subscription: any Subscription) {
            guard let demand = state.withLock({ $0.innerSubscribed(subscription) }) else {
                subscription.cancel()
                return
            }
            if demand > 0 {
                subscription.request(demand)
            }
        }

        @inlinable
        internal func sideReceive(_: Int, _ input: Output) -> Subscribers.Demand {
            guard let downstream = state.withLock({ $0.innerValue() }) else { return .none }
            let more = deliver(downstream, input)
            guard let ending = state.withLock({ $0.delivered(more) }) else { return more }
            ending.perform()
            return .none
        }

        @inlinable
        internal func sideReceive(_: Int, completion: Subscribers.Completion<Failure>) {
            state.withLock { $0.innerCompleted(completion) }?.perform()
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: FlatMapFirst was asked for .none")
            let inner = state.withLock { $0.request(demand) }
            inner?.request(demand)
        }

        @inlinable
        internal func cancel() {
            let (_, upstream, inner) = state.withLock { $0.cancel() }
            upstream?.cancel()
            inner?.cancel()
        }

        @usableFromInline
        internal var description: String { "FlatMapFirst" }

        @usableFromInline
        internal var customMirror: Mirror {
            let (demand, innerActive) = state.withLock { ($0.demand, $0.innerActive) }
            return Mirror(self, children: ["downstreamDemand": demand, "innerActive": innerActive])
        }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

/// Each inner publisher is subscribed through a ``Side``.
extension Publishers.FlatMapFirst.Inner: SideOwner {
    @usableFromInline internal var sideDescription: String { "FlatMapFirst" }
}
