import TetherCore

extension Lifetime {
    /// A publisher that emits one `()` and finishes when the lifetime ends.
    ///
    /// Each subscriber's subscription registers with the lifetime and lets go of it on cancel.
    /// The value waits for demand; once it has been asked for, it goes out on the thread that
    /// ends the lifetime (or, when the lifetime had already ended, on the requesting thread).
    /// A zero request traps, as in Combine.
    public struct EndedPublisher: Publisher, Sendable {
        /// The kind of values published by this publisher: a signal with no content.
        public typealias Output = Void

        /// The kind of errors this publisher might publish: none.
        public typealias Failure = Never

        /// The lifetime whose end this publisher announces.
        public let lifetime: Lifetime

        /// Creates a publisher announcing the end of `lifetime`.
        /// - Parameter lifetime: The lifetime to watch.
        public init(lifetime: Lifetime) {
            self.lifetime = lifetime
        }

        /// Attaches `subscriber` through a subscription described as "Lifetime.Ended".
        /// - Parameter subscriber: The subscriber to attach.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
            let subscription = EndedSubscription(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.attach(lifetime.observeEnded { subscription.lifetimeEnded() })
        }
    }

    /// A publisher announcing the end of this lifetime; see ``EndedPublisher``.
    public var endedPublisher: EndedPublisher {
        EndedPublisher(lifetime: self)
    }
}

extension Lifetime.EndedPublisher {
    /// `@unchecked Sendable`: its subscriber and everything else it changes live in `state`,
    /// touched only under its lock.
    private final class EndedSubscription<Downstream: Subscriber>: Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Void, Downstream.Failure == Never {
        private struct State {
            var downstream: Downstream?
            var observation: Lifetime.Observation?
            var requested = false
            var ended = false
            /// Set by `cancel()`, also while the value is being delivered, so that a cancel from
            /// inside `receive(_:)` suppresses the `.finished` that would follow.
            var cancelled = false
        }

        private enum Action {
            case none
            case deliver(Downstream)
            case detach(Lifetime.Observation?)
        }

        private let state: Locked<State>

        init(downstream: Downstream) {
            state = Locked(State(downstream: downstream))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        func attach(_ observation: Lifetime.Observation) {
            let keep = state.withLock { state -> Bool in
                guard state.downstream != nil else { return false }
                state.observation = observation
                return true
            }
            if !keep { observation.cancel() }
        }

        func lifetimeEnded() {
            let action = state.withLock { state -> Action in
                state.ended = true
                guard state.requested, let downstream = state.downstream else { return .none }
                state.downstream = nil
                state.observation = nil
                return .deliver(downstream)
            }
            perform(action)
        }

        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Lifetime.Ended was asked for .none")
            let action = state.withLock { state -> Action in
                state.requested = true
                guard state.ended, let downstream = state.downstream else { return .none }
                state.downstream = nil
                state.observation = nil
                return .deliver(downstream)
            }
            perform(action)
        }

        func cancel() {
            let action = state.withLock { state -> Action in
                state.cancelled = true
                guard state.downstream != nil else { return .none }
                state.downstream = nil
                defer { state.observation = nil }
                return .detach(state.observation)
            }
            perform(action)
        }

        private func perform(_ action: Action) {
            switch action {
            case .none: break
            case .deliver(let downstream):
                _ = downstream.receive(())
                if !state.withLock({ $0.cancelled }) {
                    downstream.receive(completion: .finished)
                }
            case .detach(let observation):
                observation?.cancel()
            }
        }

        var description: String { "Lifetime.Ended" }
        var customMirror: Mirror { Mirror(self, children: [:]) }
        var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Republishes elements until `lifetime` ends, then finishes and cancels the upstream.
    ///
    /// The ReactiveCocoa idiom `takeUntil(rac_willDeallocSignal)` without its trap: the
    /// lifetime belongs to the owner's ``Lifetime/Token``, which nothing in the subscription
    /// keeps alive, so a closure further down that captures the owner weakly lets the owner go,
    /// and the stream finishes as it does. (A closure that captures the owner strongly still
    /// keeps it, and the lifetime, alive: use ``Publisher/sink(weak:receiveValue:file:line:)``.)
    /// Demand and failures pass through unchanged; the `.finished` for the lifetime's end goes
    /// out on the thread that ends it. Built on ``Publisher/prefix(untilOutputFrom:)``.
    /// - Parameter lifetime: The lifetime to bind the stream to.
    /// - Returns: A publisher that finishes when `lifetime` ends.
    @inlinable
    public func prefix(during lifetime: Lifetime) -> Publishers.PrefixUntilOutput<Self, Lifetime.EndedPublisher> {
        prefix(untilOutputFrom: lifetime.endedPublisher)
    }
}
