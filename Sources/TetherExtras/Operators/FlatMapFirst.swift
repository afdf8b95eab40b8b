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
    public func flatMapFirst<P: Publisher>(
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
    public func flatMapFirst<P: Publisher>(
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
    /// publisher's.
    ///
    /// Calls out are never made under the lock. Only the active inner publisher delivers values,
    /// serially by contract; an upstream failure arriving meanwhile (from another thread, or
    /// recursively from the downstream) waits in `pendingFailure` and is delivered right after
    /// the value in flight.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output

        @usableFromInline
        internal struct State {
            /// `nil` once finished, failed or cancelled.
            @usableFromInline var downstream: Downstream?
            @usableFromInline var upstream: (any Subscription)?
            /// The active inner publisher's subscription, once it handed it over.
            @usableFromInline var inner: (any Subscription)?
            /// An inner publisher was made and has not finished: upstream values are dropped.
            @usableFromInline var innerActive = false
            @usableFromInline var upstreamFinished = false
            /// What the downstream asked for and has not received.
            @usableFromInline var demand = Subscribers.Demand.none
            /// Inner values being delivered (more than one only if an inner publisher recurses).
            @usableFromInline var delivering = 0
            @usableFromInline var pendingFailure: Failure?
            @usableFromInline var transform: ((Upstream.Output) -> NewPublisher)?

            @inlinable
            init(downstream: Downstream, transform: @escaping (Upstream.Output) -> NewPublisher) {
                self.downstream = downstream
                self.transform = transform
            }

            /// Ends the stream: everything to cancel and complete, released outside the lock.
            @inlinable
            mutating func terminate() -> (Downstream?, (any Subscription)?, (any Subscription)?) {
                defer {
                    downstream = nil
                    upstream = nil
                    inner = nil
                    pendingFailure = nil
                }
                return (downstream, upstream, inner)
            }
        }

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
            let downstream = state.withLock { state -> Downstream? in
                guard state.upstream == nil, let downstream = state.downstream else { return nil }
                state.upstream = subscription
                return downstream
            }
            guard let downstream else {
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
            let transform = state.withLock { state -> ((Upstream.Output) -> NewPublisher)? in
                guard state.downstream != nil, !state.innerActive else { return nil }
                state.innerActive = true
                return state.transform
            }
            guard let transform else { return .none }
            transform(input).receive(subscriber: Side(self))
            return .none
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>) {
            switch completion {
            case .finished:
                let downstream = state.withLock { state -> Downstream? in
                    guard state.downstream != nil else { return nil }
                    state.upstreamFinished = true
                    state.upstream = nil
                    guard !state.innerActive else { return nil }
                    return state.terminate().0
                }
                downstream?.receive(completion: .finished)
            case .failure(let failure):
                let ended = state.withLock { state -> (Downstream?, (any Subscription)?)? in
                    guard state.downstream != nil, state.pendingFailure == nil else { return nil }
                    state.upstream = nil
                    guard state.delivering == 0 else {
                        state.pendingFailure = failure
                        return nil
                    }
                    let (downstream, _, inner) = state.terminate()
                    return (downstream, inner)
                }
                guard let (downstream, inner) = ended else { return }
                inner?.cancel()
                downstream?.receive(completion: .failure(failure))
            }
        }

        @inlinable
        internal func sideReceive(_: Int, subscription: any Subscription) {
            let demand = state.withLock { state -> Subscribers.Demand? in
                guard state.downstream != nil, state.inner == nil else { return nil }
                state.inner = subscription
                return state.demand
            }
            guard let demand else {
                subscription.cancel()
                return
            }
            if demand > 0 {
                subscription.request(demand)
            }
        }

        @inlinable
        internal func sideReceive(_: Int, _ input: Output) -> Subscribers.Demand {
            let downstream = state.withLock { state -> Downstream? in
                guard let downstream = state.downstream else { return nil }
                if state.demand > 0 { state.demand -= 1 }
                state.delivering += 1
                return downstream
            }
            guard let downstream else { return .none }
            let more = deliver(downstream, input)
            let failing = state.withLock { state -> (Failure, (any Subscription)?, (any Subscription)?)? in
                state.delivering -= 1
                if state.downstream != nil { state.demand += more }
                guard state.delivering == 0, let failure = state.pendingFailure else { return nil }
                let (_, upstream, inner) = state.terminate()
                return (failure, upstream, inner)
            }
            guard let (failure, upstream, inner) = failing else { return more }
            upstream?.cancel()
            inner?.cancel()
            downstream.receive(completion: .failure(failure))
            return .none
        }

        @inlinable
        internal func sideReceive(_: Int, completion: Subscribers.Completion<Failure>) {
            let ended = state.withLock { state -> (Downstream?, (any Subscription)?)? in
                guard state.downstream != nil else { return nil }
                state.inner = nil
                state.innerActive = false
                if case .finished = completion, !state.upstreamFinished { return nil }
                let (downstream, upstream, _) = state.terminate()
                return (downstream, upstream)
            }
            guard let (downstream, upstream) = ended else { return }
            upstream?.cancel()
            downstream?.receive(completion: completion)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: FlatMapFirst was asked for .none")
            let inner = state.withLock { state -> (any Subscription)? in
                guard state.downstream != nil else { return nil }
                state.demand += demand
                return state.inner
            }
            inner?.request(demand)
        }

        @inlinable
        internal func cancel() {
            let (_, upstream, inner) = state.withLock { $0.terminate() }
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
