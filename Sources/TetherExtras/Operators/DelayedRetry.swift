import TetherCore

extension Publisher {
    /// Resubscribes to this publisher after a failure, up to `retries` times, waiting `delay` on
    /// `scheduler` before the first attempt and `backoff` times longer before each next one.
    ///
    /// With `delay` one second and `backoff` 2, the attempts come 1, 2 and 4 seconds after each
    /// failure. A failure once the attempts are used up fails the downstream. The delay of
    /// attempt *n* is `delay` × `backoff`^(*n*−1), computed by repeated addition of strides, so
    /// it must fit in the scheduler's stride type.
    ///
    /// Demand: the downstream's demand goes to the current subscription; a resubscription is
    /// asked at once for the demand the failed one left unmet, and requests made while waiting
    /// are kept for it. Failure type: this publisher's (the last failure). Values are delivered
    /// on the thread this publisher delivers them on; each resubscription is made on
    /// `scheduler`. Cancelling while waiting stops the resubscription (the scheduled action
    /// still runs, and does nothing).
    /// - Parameters:
    ///   - retries: How many times to resubscribe; zero or more (negative traps).
    ///   - delay: How long to wait before the first attempt.
    ///   - backoff: What each wait is multiplied by for the next attempt; 1 (the default) waits
    ///     `delay` every time. At least 1 (less traps).
    ///   - scheduler: The scheduler to wait and resubscribe on.
    ///   - options: Options for the scheduler.
    /// - Returns: A publisher that resubscribes after a delay when this one fails.
    @inlinable
    public consuming func retry<Context: Scheduler>(
        _ retries: Int, delay: Context.SchedulerTimeType.Stride, backoff: Int = 1, scheduler: Context,
        options: Context.SchedulerOptions? = nil
    ) -> Publishers.DelayedRetry<Self, Context> {
        precondition(retries >= 0, "retry(_:delay:backoff:scheduler:) needs zero or more retries, got \(retries)")
        precondition(backoff >= 1, "retry(_:delay:backoff:scheduler:) needs a backoff of at least 1, got \(backoff)")
        return Publishers.DelayedRetry(upstream: self, scheduler: scheduler, options: options) { _, attempt in
            guard attempt <= retries else { return nil }
            var wait = delay
            for _ in 1..<attempt {
                let previous = wait
                for _ in 1..<backoff { wait += previous }
            }
            return wait
        }
    }

    /// Resubscribes to this publisher after a failure when `delayBeforeAttempt` says so, waiting
    /// the delay it returns on `scheduler`.
    ///
    /// `delayBeforeAttempt` is called with the failure and the number of the attempt it would
    /// make (1 for the first resubscription); it returns how long to wait, or `nil` to give up
    /// and fail the downstream with that failure. Demand, failure type and delivery are as in
    /// ``retry(_:delay:backoff:scheduler:options:)``.
    /// - Parameters:
    ///   - delayBeforeAttempt: Decides whether and when to retry; it runs on the thread the
    ///     failure is delivered on.
    ///   - scheduler: The scheduler to wait and resubscribe on.
    ///   - options: Options for the scheduler.
    /// - Returns: A publisher that resubscribes after a delay when this one fails.
    @inlinable
    public consuming func retry<Context: Scheduler>(
        when delayBeforeAttempt: @escaping (_ failure: Failure, _ attempt: Int) -> Context.SchedulerTimeType.Stride?,
        scheduler: Context, options: Context.SchedulerOptions? = nil
    ) -> Publishers.DelayedRetry<Self, Context> {
        Publishers.DelayedRetry(
            upstream: self, scheduler: scheduler, options: options, delayBeforeAttempt: delayBeforeAttempt)
    }
}

extension Publishers {
    /// A publisher that resubscribes to its upstream after a failure, once a delay has passed on
    /// a scheduler, for as long as its policy gives a delay.
    ///
    /// The downstream sees one subscription and one stream of values; the demand a failed
    /// subscription left unmet goes to the next one. It fails with the failure for which the
    /// policy gives no delay.
    public struct DelayedRetry<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher to subscribe to, and to resubscribe to after failures.
        public let upstream: Upstream

        /// The scheduler that waits and resubscribes.
        public let scheduler: Context

        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// The policy: the delay before attempt number `attempt` (from 1) after `failure`, or
        /// `nil` to fail.
        public let delayBeforeAttempt:
            (_ failure: Upstream.Failure, _ attempt: Int) -> Context.SchedulerTimeType.Stride?

        /// Creates a publisher that resubscribes after delays its policy gives.
        /// - Parameters:
        ///   - upstream: The publisher to subscribe to.
        ///   - scheduler: The scheduler that waits and resubscribes.
        ///   - options: Options for the scheduler.
        ///   - delayBeforeAttempt: The policy: a delay, or `nil` to fail.
        @inlinable
        public init(
            upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions? = nil,
            delayBeforeAttempt:
                @escaping (_ failure: Upstream.Failure, _ attempt: Int) -> Context.SchedulerTimeType.Stride?
        ) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
            self.delayBeforeAttempt = delayBeforeAttempt
        }

        /// Attaches `subscriber` through a subscription described as "DelayedRetry".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let relay = FailoverSubscription(name: "DelayedRetry", downstream: subscriber, recovery: self)
            upstream.receive(subscriber: Side(relay: relay, attempt: 0))
        }
    }
}

extension Publishers.DelayedRetry {
    /// The subscriber of one subscription to the upstream, feeding the shared relay; it knows
    /// how many attempts came before it.
    @usableFromInline
    internal struct Side<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Failover = FailoverSubscription<
            Downstream, Publishers.DelayedRetry<Upstream, Context>
        >

        @usableFromInline let relay: Failover
        @usableFromInline let attempt: Int
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(relay: Failover, attempt: Int) {
            self.relay = relay
            self.attempt = attempt
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
            guard case .failure(let failure) = completion else {
                relay.finish(.finished)
                return
            }
            guard let plan = relay.recovery() else { return }
            let next = attempt + 1
            guard let delay = plan.delayBeforeAttempt(failure, next) else {
                relay.finish(.failure(failure))
                return
            }
            guard relay.beginSwitch() else { return }
            let relay = self.relay
            // The action keeps the relay until it runs, as a delayed delivery would; after a
            // cancel, `recovery()` finds the stream stopped and nothing is subscribed.
            let scheduler = plan.scheduler
            scheduler.schedule(
                after: scheduler.now.advanced(by: delay), tolerance: scheduler.minimumTolerance, options: plan.options
            ) {
                guard let plan = relay.recovery() else { return }
                plan.upstream.receive(subscriber: Side(relay: relay, attempt: next))
            }
        }

        @usableFromInline var description: String { "DelayedRetry" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: ["attempt": attempt]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
