extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    ///
    /// Each time the upstream fails and attempts are left, the upstream is subscribed again (on
    /// the failing thread) and the new subscription is asked for the downstream demand left
    /// unmet; values delivered before the failure are not repeated by the operator itself.
    /// Once the attempts are used up the failure goes downstream; a negative number of retries
    /// never runs out, as in Combine. The downstream keeps one subscription throughout;
    /// cancelling it cancels the current upstream subscription. As in Combine, the demand the
    /// downstream returns for a value is requested from the upstream subscription, a value sent
    /// with no demand outstanding traps, and a completion before the upstream's subscription
    /// goes downstream. Requesting `.none` traps. An upstream that fails while it is being subscribed is subscribed
    /// again by the same loop, so the stack does not grow with the attempts.
    public struct Retry<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of retry attempts to perform.
        ///
        /// If `nil`, this publisher attempts to reconnect with the upstream publisher an
        /// unlimited number of times.
        public let retries: Int?

        /// Creates a publisher that attempts to recreate its subscription to a failed upstream
        /// publisher.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives its elements.
        ///   - retries: The maximum number of retry attempts to perform. If `nil`, this
        ///     publisher attempts to reconnect with the upstream publisher an unlimited number
        ///     of times.
        @inlinable
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches `subscriber`; signals arrive on the upstream's threads.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public consuming func receive<S: Subscriber>(subscriber: consuming S)
        where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(upstream: upstream, retries: retries, downstream: subscriber))
        }
    }
}

extension Publishers.Retry {
    /// Both the subscriber attached to each upstream subscription in turn and the downstream's
    /// subscription, as in Combine.
    ///
    /// It counts the downstream's outstanding demand: each new upstream subscription is asked
    /// for it, and the demand the downstream returns for a value is requested from the current
    /// subscription rather than returned. A value with no demand outstanding traps. A failure
    /// with attempts left subscribes the upstream again; one that arrives while the upstream is
    /// being subscribed is picked up by the same loop, so the stack does not grow. The
    /// downstream is released when the stream ends or is cancelled.
    ///
    /// Its state is the base class's `state` (a ``RetryState``), with the lock beside it, so that
    /// the `deinit`, which runs unspecialised, looks no type up (Docs/FastWithoutTheSpecialiser.md,
    /// "Generic state in one value").
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: SubscriptionBase<RetryState<Upstream, Downstream>>,
        Subscriber, Subscription, SpecializedControl, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        /// What a completion leads to.
        @usableFromInline
        internal enum Step {
            case ignore, end(Downstream), resubscribe(Upstream), deferred
        }

        /// Guards `state`.
        @usableFromInline let lock = Locked(())

        /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose witness
        /// runs the unspecialised body (see ``ControlSignal``).
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        @inlinable
        init(upstream: Upstream, retries: Int?, downstream: Downstream) {
            control = Inner.controlEntry
            super.init(state: RetryState(upstream: upstream, downstream: downstream, retriesLeft: retries))
            Ledger.enter(self)
        }

        /// Runs `body` on the state under the lock.
        @inlinable @inline(__always)
        func withState<Result>(_ body: (inout RetryState<Upstream, Downstream>) -> Result) -> Result {
            lock.withLock { _ in body(&state) }
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let accepted = withState { state -> (Downstream?, Subscribers.Demand)? in
                guard state.downstream != nil, state.source == nil else { return nil }
                state.source = subscription
                let firstTime = !state.downstreamSubscribed
                state.downstreamSubscribed = true
                return (firstTime ? state.downstream : nil, state.demand)
            }
            guard let accepted else {
                subscription.cancel()
                return
            }
            let (downstream, demand) = accepted
            downstream?.receive(subscription: self)
            if demand > 0 {
                subscription.request(demand)
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let downstream = withState { state -> Downstream? in
                guard state.downstream != nil else { return nil }
                precondition(
                    state.demand > 0, "A publisher must not send a value without demand: Retry had none outstanding")
                state.demand -= 1
                return state.downstream
            }
            guard let downstream else { return .none }
            let more = downstream.receive(input)
            guard more > 0 else { return .none }
            let source = withState { state -> (any Subscription)? in
                guard state.downstream != nil else { return nil }
                state.demand += more
                return state.source
            }
            source?.request(more)
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            let step = withState { state -> Step in
                guard let downstream = state.downstream, let upstream = state.upstream else { return .ignore }
                if case .failure = completion {
                    state.source = nil
                    let attemptLeft: Bool
                    switch state.retriesLeft {
                    case nil:
                        attemptLeft = true
                    case let left?:
                        attemptLeft = left != 0
                        if attemptLeft { state.retriesLeft = left - 1 }
                    }
                    if attemptLeft {
                        if state.resubscribing {
                            state.resubscribePending = true
                            return .deferred
                        }
                        state.resubscribing = true
                        return .resubscribe(upstream)
                    }
                }
                state.downstream = nil
                state.upstream = nil
                state.source = nil
                return .end(downstream)
            }
            switch step {
            case .ignore, .deferred:
                return
            case .end(let downstream):
                downstream.receive(completion: completion)
            case .resubscribe(let upstream):
                repeat {
                    upstream.subscribe(self)
                } while withState { state -> Bool in
                    if state.resubscribePending {
                        state.resubscribePending = false
                        return true
                    }
                    state.resubscribing = false
                    return false
                }
            }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            control(self, .request(demand))
        }

        @inlinable
        func cancel() {
            control(self, .cancel)
        }

        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Retry was asked for .none")
            let source = withState { state -> (any Subscription)? in
                guard state.downstream != nil else { return nil }
                state.demand += demand
                return state.source
            }
            source?.request(demand)
        }

        @inlinable
        func cancelNow() {
            let (source, released) = withState { state -> ((any Subscription)?, (Downstream?, Upstream?)) in
                defer {
                    state.downstream = nil
                    state.upstream = nil
                    state.source = nil
                }
                return (state.source, (state.downstream, state.upstream))
            }
            withExtendedLifetime(released) {
                source?.cancel()
            }
        }

        @usableFromInline var description: String { "Retry" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number
    /// of times you specify.
    ///
    /// See ``Publishers/Retry`` for how demand carries over.
    /// - Parameter retries: The number of times to attempt to recreate the subscription.
    /// - Returns: A publisher that attempts to recreate its subscription to a failed upstream
    ///   publisher.
    @inlinable
    public consuming func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}
