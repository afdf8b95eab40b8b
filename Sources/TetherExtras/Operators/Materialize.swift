import TetherCore

extension Publisher {
    /// Turns every signal of this publisher into an ``Event`` value: each value into
    /// `.value`, and the completion into `.finished` or `.failure`, after which the materialized
    /// publisher finishes.
    ///
    /// Demand: the downstream's demand goes to the upstream; the completion event needs one more
    /// unit of demand, so if the downstream has none left when the upstream completes, the event
    /// (and the finish after it) waits for the next request, on whose thread it is delivered.
    /// Otherwise everything is delivered on the thread that delivers the upstream's signals.
    /// The failure type is `Never`: failures become values.
    /// - Returns: A publisher of the upstream's signals as values, that never fails.
    @inlinable
    public func materialize() -> Publishers.Materialize<Self> {
        Publishers.Materialize(upstream: self)
    }
}

extension Publishers {
    /// A publisher that turns every signal of its upstream into an ``Event`` value.
    public struct Materialize<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's signals.
        public typealias Output = Event<Upstream.Output, Upstream.Failure>

        /// The kind of errors this publisher might publish: none.
        public typealias Failure = Never

        /// The publisher whose signals are materialized.
        public let upstream: Upstream

        /// Creates a publisher materializing `upstream`'s signals.
        /// - Parameter upstream: The publisher whose signals are materialized.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a subscription to the upstream.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: Inner(downstream: subscriber))
        }
    }
}

extension Publishers.Materialize {
    /// The upstream's subscriber and the downstream's subscription: it counts the downstream's
    /// demand, so that the completion event goes out only when there is demand for it.
    ///
    /// `@unchecked Sendable`: its subscriber, upstream, demand and completion live in `state`,
    /// touched only under its lock.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Never {
        @usableFromInline typealias Input = Upstream.Output

        @usableFromInline
        internal struct State {
            /// `nil` once the completion event is out, or cancelled.
            @usableFromInline var downstream: Downstream?
            @usableFromInline var upstream = UpstreamStatus.awaitingSubscription
            /// The downstream's outstanding demand.
            @usableFromInline var demand = Subscribers.Demand.none
            /// The upstream's completion, waiting for demand.
            @usableFromInline var completion: Subscribers.Completion<Upstream.Failure>?

            @inlinable
            init(downstream: Downstream) { self.downstream = downstream }
        }

        @usableFromInline
        internal let state: Locked<State>

        @inlinable
        internal init(downstream: Downstream) {
            state = Locked(State(downstream: downstream))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func receive(subscription: any Subscription) {
            let downstream = state.withLock { state -> Downstream? in
                guard case .awaitingSubscription = state.upstream, let downstream = state.downstream else {
                    return nil
                }
                state.upstream = .subscribed(subscription)
                return downstream
            }
            guard let downstream else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        internal func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let downstream = state.withLock { state -> Downstream? in
                guard state.completion == nil, let downstream = state.downstream else { return nil }
                // An upstream that sends beyond demand breaks its contract; the count stays sane.
                if state.demand > 0 { state.demand -= 1 }
                return downstream
            }
            guard let downstream else { return .none }
            let more = downstream.receive(.value(input))
            state.withLock { $0.demand += more }
            return more
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let downstream = state.withLock { state -> Downstream? in
                guard state.completion == nil, let downstream = state.downstream else { return nil }
                state.upstream = .terminal
                guard state.demand > 0 else {
                    state.completion = completion
                    return nil
                }
                state.downstream = nil
                return downstream
            }
            guard let downstream else { return }
            Self.deliver(completion, to: downstream)
        }

        @inlinable
        internal static func deliver(_ completion: Subscribers.Completion<Upstream.Failure>, to downstream: Downstream)
        {
            switch completion {
            case .finished:
                _ = downstream.receive(.finished)
            case .failure(let failure):
                _ = downstream.receive(.failure(failure))
            }
            downstream.receive(completion: .finished)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Materialize was asked for .none")
            let (upstream, ended) = state.withLock {
                state -> ((any Subscription)?, (Subscribers.Completion<Upstream.Failure>, Downstream)?) in
                guard let downstream = state.downstream else { return (nil, nil) }
                if let completion = state.completion {
                    state.downstream = nil
                    state.completion = nil
                    return (nil, (completion, downstream))
                }
                state.demand += demand
                return (state.upstream.subscription, nil)
            }
            if let (completion, downstream) = ended {
                Self.deliver(completion, to: downstream)
            }
            upstream?.request(demand)
        }

        @inlinable
        internal func cancel() {
            let (upstream, downstream) = state.withLock { state -> ((any Subscription)?, Downstream?) in
                defer {
                    state.downstream = nil
                    state.completion = nil
                }
                return (UpstreamStatus.end(&state.upstream).subscription, state.downstream)
            }
            upstream?.cancel()
            withExtendedLifetime(downstream) {}
        }

        @usableFromInline
        internal var description: String { "Materialize" }

        @usableFromInline
        internal var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}
