extension Publisher {
    /// Measures and emits the time interval between events received from an upstream
    /// publisher.
    ///
    /// The first value is measured from the moment the subscription arrived, each later one
    /// from the value before it, by `scheduler.now`; nothing is scheduled, so the intervals are
    /// delivered on the thread that sends the values. Demand, the subscription and failures
    /// pass through unchanged.
    /// - Parameters:
    ///   - scheduler: A scheduler to use for tracking the timing of events.
    ///   - options: Options that customize the delivery of elements.
    /// - Returns: A publisher that emits elements representing the time interval between the
    ///   elements it receives.
    @inlinable
    public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
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
    /// As in Combine, a value (answered with `.none`) or a completion that arrives before the
    /// upstream's subscription is ignored.
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

        /// Attaches `subscriber` through a relay described as "MeasureInterval".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler))
        }
    }
}

extension Publishers.MeasureInterval {
    /// The relay: the upstream subscription passes through; the last instant lives in a plain
    /// stored property, touched only on the upstream's serial signal path.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Context.SchedulerTimeType.Stride, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline let downstream: Downstream
        @usableFromInline let scheduler: Context
        @usableFromInline var last: Context.SchedulerTimeType?

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
            last = scheduler.now
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            // Before the subscription there is nothing to measure from; Combine ignores the value.
            guard let last else { return .none }
            let now = scheduler.now
            self.last = now
            return downstream.receive(last.distance(to: now))
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            // Combine ignores a completion that comes before the subscription.
            guard last != nil else { return }
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "MeasureInterval" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
