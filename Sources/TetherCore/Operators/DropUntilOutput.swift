extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an
    /// element from second publisher.
    ///
    /// The subscriber gets its subscription first; then ``other`` is subscribed and asked for
    /// one element, then the upstream. Requests pass to the upstream. Elements that arrive
    /// before `other` emits are dropped, each using one unit of the requested demand (one
    /// dropped with none outstanding traps, as in Combine); afterwards every element is
    /// republished and the demand the subscriber returns goes back upstream. `other` is not
    /// cancelled when it emits. If `other` completes before emitting, the upstream is cancelled
    /// and the completion goes downstream. As in Combine, requesting `.none` does not trap, the
    /// subscriber is held for the subscription's whole life, and `other`'s completion does not
    /// end the stream: a later completion from the upstream is passed on as well. Signals go
    /// out on the thread that delivers them, one at a time.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's and `other`'s.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from the upstream publisher until it
        /// receives an element from another publisher.
        /// - Parameters:
        ///   - upstream: A publisher to drop elements from while waiting for another publisher
        ///     to emit elements.
        ///   - other: A publisher to monitor for its first emitted element.
        @inlinable
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        /// Attaches `subscriber` through a subscription described as "DropUntilOutput".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber)
            subscriber.receive(subscription: inner)
            // The trigger first, so that a trigger that fires at once is seen before a
            // synchronous upstream delivers anything.
            other.subscribe(UntilOutputTrigger<Inner<S>, Other.Output>(target: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.DropUntilOutput {
    /// The upstream's subscriber and the downstream's subscription in one, as in Combine, with
    /// a ``DropUntilOutputState`` under its lock. Calls into the downstream take a
    /// ``DownstreamTurn``, nesting on the same thread.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, UntilOutputTarget, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline typealias TriggerFailure = Failure

        @usableFromInline let state = Locked(DropUntilOutputState())
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
            guard let demand = state.withLock({ $0.attachUpstream(subscription) }) else {
                subscription.cancel()
                return
            }
            if demand > 0 {
                subscription.request(demand)
            }
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            guard state.withLock({ $0.upstreamValue() }) else { return .none }
            return turn.nesting { downstream.receive(input) }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            guard state.withLock({ $0.upstreamCompleted() }) else { return }
            turn.nesting { downstream.receive(completion: completion) }
        }

        @inlinable
        func attachTrigger(_ subscription: any Subscription) {
            guard state.withLock({ $0.attachOther(subscription) }) else {
                subscription.cancel()
                return
            }
            subscription.request(.max(1))
        }

        @inlinable
        func triggerFired() {
            state.withLock { $0.otherValue() }
        }

        @inlinable
        func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
            guard let upstream = state.withLock({ $0.otherCompleted() }) else { return }
            upstream?.cancel()
            turn.nesting { downstream.receive(completion: completion) }
        }

        /// Counted, and passed on unless it is `.none`, which Combine does not trap on here.
        @inlinable
        func request(_ demand: Subscribers.Demand) {
            let upstream = state.withLock { $0.request(demand) }
            if demand > 0 {
                upstream?.request(demand)
            }
        }

        @inlinable
        func cancel() {
            let (upstream, other) = state.withLock { $0.cancel() }
            upstream?.cancel()
            other?.cancel()
        }

        @usableFromInline var description: String { "DropUntilOutput" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.DropUntilOutput: Sendable where Upstream: Sendable, Other: Sendable {}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second
    /// publisher.
    ///
    /// Asks `publisher` for one element and drops upstream elements until it arrives, then
    /// republishes the rest; see ``Publishers/DropUntilOutput`` for demand.
    /// - Parameter publisher: A publisher to monitor for its first emitted element.
    /// - Returns: A publisher that drops elements from the upstream publisher until the `other`
    ///   publisher produces a value.
    @inlinable
    public consuming func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}
