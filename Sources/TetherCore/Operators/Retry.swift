extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    ///
    /// Each time the upstream fails and attempts are left, the upstream is subscribed again (on
    /// the failing thread) and the new subscription is asked for the downstream demand left
    /// unmet; values delivered before the failure are not repeated by the operator itself.
    /// Once the attempts are used up the failure goes downstream. The downstream keeps one
    /// subscription throughout; cancelling it cancels the current upstream subscription.
    /// Requesting `.none` traps. An upstream that fails while it is being subscribed is
    /// subscribed again by the same loop, so the stack does not grow with the attempts.
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
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = FailoverRelay(
                name: "Retry", downstream: subscriber, recovery: upstream, retries: retries, passesEarlyCompletion: true)
            upstream.receive(subscriber: Inner(relay: relay))
        }
    }
}

extension Publishers.Retry {
    /// The subscriber attached to each upstream subscription in turn.
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let relay: FailoverRelay<Downstream, Upstream>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(relay: FailoverRelay<Downstream, Upstream>) {
            self.relay = relay
        }

        @inlinable
        func receive(subscription: any Subscription) {
            relay.attach(subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            relay.relay(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                relay.finish(.finished)
            case .failure(let error):
                guard let upstream = relay.recovery() else {
                    // Cancelled (and then this does nothing), or failed before its subscription,
                    // which Combine passes on.
                    relay.finish(.failure(error))
                    return
                }
                let relay = self.relay
                let retried = relay.retry { upstream.receive(subscriber: Inner(relay: relay)) }
                if !retried {
                    relay.finish(.failure(error))
                }
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
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}
