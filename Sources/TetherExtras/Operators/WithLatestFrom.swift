import TetherCore

extension Publisher {
    /// Combines each value of this publisher with the latest value of `other`, through
    /// `resultSelector`.
    ///
    /// A value from this publisher is published, combined with `other`'s latest value, only once
    /// `other` has produced a value; before that it is dropped (and the demand it used is asked
    /// for again). `other`'s values alone publish nothing. The publisher finishes when this
    /// publisher finishes; `other` finishing changes nothing (its latest value stays in use). A
    /// failure from either publisher is published at once and cancels the other one.
    ///
    /// Demand: the downstream's demand goes to this publisher; `other` is asked for `.unlimited`.
    /// Values are delivered on the thread that delivers this publisher's values; a failure of
    /// `other` on the thread that delivers it, or, if a value is being delivered at that moment,
    /// right after it on that value's thread. Cancelling cancels both publishers.
    /// - Parameters:
    ///   - other: The publisher whose latest value accompanies each value of this one.
    ///   - resultSelector: A closure combining a value of this publisher with `other`'s latest.
    /// - Returns: A publisher of the combined values, failing with this publisher's failure type.
    @inlinable
    public consuming func withLatestFrom<Other: Publisher, Result>(
        _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
    ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
    }

    /// Publishes the latest value of `other` each time this publisher produces a value.
    ///
    /// The same as ``withLatestFrom(_:resultSelector:)`` with a selector that keeps `other`'s
    /// value: values of this publisher before `other`'s first value are dropped, the publisher
    /// finishes when this one does, failures of either are published, and cancelling cancels
    /// both. Demand goes to this publisher; `other` is asked for `.unlimited`. Values are
    /// delivered on the thread that delivers this publisher's values.
    /// - Parameter other: The publisher whose latest value is published.
    /// - Returns: A publisher of `other`'s values, failing with this publisher's failure type.
    @inlinable
    public consuming func withLatestFrom<Other: Publisher>(
        _ other: Other
    ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
        Publishers.WithLatestFrom(upstream: self, other: other) { _, latest in latest }
    }
}

extension Publishers {
    /// A publisher that combines each upstream value with the latest value of another publisher.
    ///
    /// Upstream values arriving before `other` has produced a value are dropped. It finishes when
    /// the upstream finishes, fails when either publisher fails, and cancels both when cancelled.
    public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The kind of errors this publisher might publish: the upstream's (and `other`'s).
        public typealias Failure = Upstream.Failure

        /// The publisher whose values drive this one.
        public let upstream: Upstream

        /// The publisher whose latest value accompanies each upstream value.
        public let other: Other

        /// The closure combining an upstream value with `other`'s latest value.
        public let resultSelector: (Upstream.Output, Other.Output) -> Output

        /// Creates a publisher combining `upstream`'s values with `other`'s latest.
        /// - Parameters:
        ///   - upstream: The publisher whose values drive this one.
        ///   - other: The publisher whose latest value accompanies each upstream value.
        ///   - resultSelector: The closure combining the two.
        @inlinable
        public init(
            upstream: Upstream, other: Other, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
        ) {
            self.upstream = upstream
            self.other = other
            self.resultSelector = resultSelector
        }

        /// Hands `subscriber` its subscription, then subscribes to `other` and the upstream.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, resultSelector: resultSelector)
            subscriber.receive(subscription: inner)
            other.receive(subscriber: Side(inner))
            upstream.receive(subscriber: inner)
        }
    }
}

extension Publishers.WithLatestFrom {
    /// The subscription: the upstream's subscriber, and (through a ``Side``) `other`'s. What
    /// each signal does is decided by a ``WithLatestFromState`` under the lock and done once it
    /// is released, so that no call out is made under it.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output

        @usableFromInline
        internal let state: Locked<WithLatestFromState<Downstream, Other.Output>>

        @usableFromInline
        internal let resultSelector: (Upstream.Output, Other.Output) -> Output

        @inlinable
        internal init(downstream: Downstream, resultSelector: @escaping (Upstream.Output, Other.Output) -> Output) {
            state = Locked(WithLatestFromState(downstream: downstream))
            self.resultSelector = resultSelector
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func receive(subscription: any Subscription) {
            guard let demand = state.withLock({ $0.upstreamSubscribed(subscription) }) else {
                subscription.cancel()
                return
            }
            if demand > 0 {
                subscription.request(demand)
            }
        }

        @inlinable
        internal func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            switch state.withLock({ $0.upstreamValue() }) {
            case .ignore:
                return .none
            case .replace:
                return .max(1)
            case .deliver(let downstream, let latest):
                let demand = downstream.receive(resultSelector(input, latest))
                guard let ending = state.withLock({ $0.delivered() }) else { return demand }
                ending.perform()
                return .none
            }
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>) {
            let (ending, _) = state.withLock { $0.upstreamCompleted(completion) }
            ending.perform()
        }

        @inlinable
        internal func sideReceive(_: Int, subscription: any Subscription) {
            if state.withLock({ $0.otherSubscribed(subscription) }) {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        @inlinable
        internal func sideReceive(_: Int, _ input: Other.Output) -> Subscribers.Demand {
            state.withLock { $0.otherValue(input) }
            return .none
        }

        @inlinable
        internal func sideReceive(_: Int, completion: Subscribers.Completion<Failure>) {
            state.withLock { $0.otherCompleted(completion) }?.perform()
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: WithLatestFrom was asked for .none")
            let upstream = state.withLock { $0.request(demand) }
            upstream?.request(demand)
        }

        @inlinable
        internal func cancel() {
            let (_, upstream, other) = state.withLock { $0.cancel() }
            upstream?.cancel()
            other?.cancel()
        }

        @usableFromInline
        internal var description: String { "WithLatestFrom" }

        @usableFromInline
        internal var customMirror: Mirror {
            let latest = state.withLock { $0.latest }
            return Mirror(self, children: ["latest": latest as Any])
        }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

/// `other` is subscribed through a ``Side``.
extension Publishers.WithLatestFrom.Inner: SideOwner {
    @usableFromInline internal var sideDescription: String { "WithLatestFrom" }
}
