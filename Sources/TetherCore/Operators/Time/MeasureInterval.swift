extension Publisher {
    /// Measures and emits the time interval between events received from an upstream
    /// publisher.
    ///
    /// The first value is measured from the moment the subscription arrived, each later one
    /// from the value before it, by `scheduler.now`; nothing is scheduled, so the intervals are
    /// delivered on the thread that sends the values. Requests pass through unchanged; the
    /// demand the subscriber returns for an interval is requested from the upstream, as Combine
    /// does, rather than returned. Failures pass through unchanged.
    /// - Parameters:
    ///   - scheduler: A scheduler to use for tracking the timing of events.
    ///   - options: Options that customize the delivery of elements.
    /// - Returns: A publisher that emits elements representing the time interval between the
    ///   elements it receives.
    @inlinable
    public consuming func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.MeasureInterval<Self, S>
    {
        Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
    }
}

extension Publishers {
    /// A publisher that measures and emits the time interval between events received from an
    /// upstream publisher.
    ///
    /// See ``Publisher/measureInterval(using:options:)``.
    ///
    /// As in Combine, the subscriber gets a subscription of the operator's own, which it holds
    /// until the subscriber lets go of it; a second subscription from the upstream is cancelled.
    /// A value (answered with `.none`), a completion, a request or a `cancel` that arrives before
    /// the upstream's subscription is ignored, and so is a value or a completion after the end.
    public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: intervals in the scheduler's time.
        public typealias Output = Context.SchedulerTimeType.Stride

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler used for tracking the timing of events.
        public let scheduler: Context

        /// Creates a publisher that measures and emits the time interval between events
        /// received from an upstream publisher.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - scheduler: A scheduler to use for tracking the timing of events.
        @inlinable
        public init(upstream: Upstream, scheduler: Context) {
            self.upstream = upstream
            self.scheduler = scheduler
        }

        /// Attaches `subscriber` through a subscription described as "MeasureInterval".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

extension Publishers.MeasureInterval {
    /// The operator's own subscription, as Combine's: it hands itself downstream, and the demand
    /// the subscriber returns for an interval goes to the upstream as a request rather than back
    /// as the returned demand.
    ///
    /// Who ends the stream (the upstream's completion or the downstream's `cancel`) is decided
    /// under `link`; a value passes the ``ReleaseHandOff`` and takes no lock. The last instant and
    /// the upstream's subscription for demand are touched only on the upstream's serial path.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output

        /// The kernel: the upstream's status, and the hand-off that tells the serial path without
        /// a lock whether the stream is subscribed and not over.
        @usableFromInline let link = UpstreamLink()
        /// Held for the subscription's whole life, as Combine holds it.
        @usableFromInline let downstream: Downstream
        @usableFromInline let scheduler: Context
        /// Serial path only: the instant the last interval ends at.
        @usableFromInline @exclusivity(unchecked) var last: Context.SchedulerTimeType?
        /// Serial path only: where the demand returned for an interval goes.
        @usableFromInline @exclusivity(unchecked) var upstream: (any Subscription)?

        @inlinable
        init(downstream: Downstream, scheduler: Context) {
            self.downstream = downstream
            self.scheduler = scheduler
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard link.attach(subscription) else {
                subscription.cancel()
                return
            }
            upstream = subscription
            last = scheduler.now
            link.handOff.open()
            downstream.receive(subscription: self)
            _ = link.handOff.leave()
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            // Combine ignores a value before the subscription and after the end.
            guard link.handOff.enterIfSubscribed(), let last, let upstream else { return .none }
            let now = scheduler.now
            self.last = now
            let demand = downstream.receive(last.distance(to: now))
            if link.handOff.leave() { return .none }
            if demand > 0 { upstream.request(demand) }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            // Combine ignores a completion before the subscription and after the end.
            guard link.endIfSubscribed() != nil else { return }
            link.handOff.stopFromSerialPath()
            downstream.receive(completion: completion)
        }

        /// Passes `demand` on as given, as Combine does, even `.none`; before the subscription
        /// and after the end it does nothing.
        @inlinable
        func request(_ demand: Subscribers.Demand) {
            link.upstream?.request(demand)
        }

        /// Before the subscription it does nothing, as in Combine: the subscription is accepted
        /// when it comes.
        @inlinable
        func cancel() {
            guard let upstream = link.cancel(evenBeforeSubscription: false) else { return }
            upstream.cancel()
        }

        @usableFromInline var description: String { "MeasureInterval" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
