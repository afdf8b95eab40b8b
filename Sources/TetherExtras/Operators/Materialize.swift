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
    public consuming func materialize() -> Publishers.Materialize<Self> {
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
    /// The upstream's subscriber and the downstream's subscription. What each signal does is
    /// decided by a ``MaterializeState`` under the lock and done once it is released, so that no
    /// call out is made under it.
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
        internal let state: Locked<MaterializeState<Downstream, Upstream.Failure>>

        @inlinable
        internal init(downstream: Downstream) {
            state = Locked(MaterializeState(downstream: downstream))
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
        }

        @inlinable
        internal func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let downstream = state.withLock({ $0.upstreamValue() }) else { return .none }
            let more = downstream.receive(.value(input))
            // Adding no demand changes nothing: the usual value takes the lock once.
            if more > 0 {
                state.withLock { $0.delivered(more) }
            }
            return more
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard case .complete(let completion, let downstream) = state.withLock({ $0.upstreamCompleted(completion) })
            else { return }
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
            switch state.withLock({ $0.request(demand) }) {
            case .none:
                break
            case .request(let upstream):
                upstream.request(demand)
            case .complete(let completion, let downstream):
                Self.deliver(completion, to: downstream)
            }
        }

        @inlinable
        internal func cancel() {
            let (upstream, downstream) = state.withLock { $0.cancel() }
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
