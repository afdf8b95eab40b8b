extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element.
    ///
    /// It subscribes to ``other``, then to the upstream, asking `other` for one element; the
    /// subscriber gets its subscription when the upstream's arrives. Demand passes to the
    /// upstream unchanged (`.none` included, as in Combine). When `other` emits, the publisher
    /// cancels the upstream and finishes; as in Combine it does not cancel `other`, finishes
    /// even a subscriber that has not had its subscription yet, and cancels an upstream
    /// subscription that arrives afterwards. `other` finishing or failing without an element
    /// changes nothing. Upstream failures pass through as `Upstream.Failure`. As in Combine,
    /// the subscription does not describe itself, and holds its subscriber for its whole life.
    /// Signals go out one at a time on the thread that delivers the upstream's signal, or
    /// `other`'s element.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements until another publisher emits an
        /// element.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - other: Another publisher, the first output from which causes this publisher to
        ///     finish.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches `subscriber`; its subscription names the operator in its type only.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber)
            // The trigger first, so that a trigger that fires at once is seen before a
            // synchronous upstream delivers anything.
            other.subscribe(UntilOutputTrigger<Inner<S>, Other.Output>(target: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.PrefixUntilOutput {
    /// The upstream's subscriber and the downstream's subscription in one, with a
    /// ``PrefixUntilOutputState`` under its lock. Calls into the downstream take a
    /// ``DownstreamTurn``, nesting on the same thread. Like Combine's, it has no description or
    /// mirror of its own.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, UntilOutputTarget, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline typealias TriggerFailure = Other.Failure

        @usableFromInline let state = Locked(PrefixUntilOutputState())
        @usableFromInline let turn = DownstreamTurn()
        @usableFromInline let downstream: Downstream

        @inlinable
        init(downstream: Downstream) {
            self.downstream = downstream
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard state.withLock({ $0.attachUpstream(subscription) }) else {
                subscription.cancel()
                return
            }
            turn.nesting { downstream.receive(subscription: self) }
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            guard state.withLock({ $0.passes() }) else { return .none }
            return turn.nesting { downstream.receive(input) }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            let (trigger, delivers) = state.withLock { $0.upstreamCompleted() }
            trigger?.cancel()
            if delivers {
                turn.nesting { downstream.receive(completion: completion) }
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            state.withLock { $0.request() }?.request(demand)
        }

        @inlinable
        func cancel() {
            let (upstream, trigger) = state.withLock { $0.cancel() }
            upstream?.cancel()
            trigger?.cancel()
        }

        @inlinable
        func attachTrigger(_ subscription: any Subscription) {
            guard state.withLock({ $0.attachTrigger(subscription) }) else {
                subscription.cancel()
                return
            }
            subscription.request(.max(1))
        }

        @inlinable
        func triggerFired() {
            guard let upstream = state.withLock({ $0.triggerFired() }) else { return }
            upstream?.cancel()
            turn.nesting { downstream.receive(completion: .finished) }
        }

        @inlinable
        func triggerCompleted(_ completion: Subscribers.Completion<Other.Failure>) {
            state.withLock { $0.triggerCompleted() }
        }
    }
}

extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.PrefixUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

extension Publisher {
    /// Republishes elements until another publisher emits an element.
    ///
    /// Asks `publisher` for one element; when it arrives, cancels the upstream and finishes.
    /// Demand passes to the upstream unchanged; see ``Publishers/PrefixUntilOutput``.
    /// - Parameter publisher: A second publisher.
    /// - Returns: A publisher that republishes elements until the second publisher publishes an
    ///   element.
    @inlinable
    public consuming func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}
