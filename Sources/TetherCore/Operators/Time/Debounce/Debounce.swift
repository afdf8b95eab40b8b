extension Publisher {
    /// Publishes elements only after a specified time interval elapses between events.
    ///
    /// Each value waits `dueTime`; a newer value in that time replaces it and starts the wait
    /// again, so only the latest value of a burst goes out, once the upstream has been quiet
    /// for `dueTime`. The operator asks the upstream for `.unlimited` and delivers a value only
    /// when the subscriber has outstanding demand (otherwise it is dropped). Values and the
    /// completion are delivered on `scheduler`; a completion drops the value still waiting.
    /// Events before the subscription, and a cancel before it, are ignored.
    /// Failures pass through as `Failure`.
    ///
    /// As Combine's does, the subscription holds the subscriber for its whole life, and the
    /// work scheduled on `scheduler` (a value's timer, the completion's delivery) holds the
    /// subscription until it has run or, for a timer, until the scheduler lets go of it once
    /// cancelled: after a cancel, the subscriber stays alive until then.
    /// - Parameters:
    ///   - dueTime: The time the publisher should wait before publishing an element.
    ///   - scheduler: The scheduler on which this publisher delivers elements.
    ///   - options: Scheduler options that customize this publisher's delivery of elements.
    /// - Returns: A publisher that publishes events only after a specified time elapses.
    @inlinable
    public consuming func debounce<S: Scheduler>(
        for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> Publishers.Debounce<Self, S> {
        Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that publishes elements only after a specified time interval elapses between
    /// events.
    ///
    /// See ``Publisher/debounce(for:scheduler:options:)``.
    public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The amount of time the publisher should wait before publishing an element.
        public let dueTime: Context.SchedulerTimeType.Stride

        /// The scheduler on which this publisher delivers elements.
        public let scheduler: Context

        /// Scheduler options that customize this publisher's delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that publishes elements only after a specified time interval
        /// elapses between events.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - dueTime: The amount of time the publisher should wait before publishing an
        ///     element.
        ///   - scheduler: The scheduler on which this publisher delivers elements.
        ///   - options: Scheduler options that customize this publisher's delivery of elements.
        @inlinable
        public init(
            upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.dueTime = dueTime
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber` through a subscription described as "Debounce".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Debounce {
    /// The subscription: a ``DebounceState`` under a lock, a ``ScheduledDelivery`` for the
    /// timers, and a ``DeliveryLine`` for what goes out.
    ///
    /// As in Combine, a timer holds the subscription strongly until it is cancelled (when it
    /// has fired, when a newer value replaces it, or when the stream ends) and the scheduler
    /// lets go of it, and the subscription holds the subscriber for its whole life.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, SpecializedControl,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline let delivery: ScheduledDelivery<Downstream, Context>
        /// Made in the initialiser: a default value is a function of its own, which a generic class
        /// calls unspecialised, looking the state's types up for every subscription.
        @usableFromInline let state: Locked<DebounceState<Output>>
        @usableFromInline let dueTime: Context.SchedulerTimeType.Stride
        @usableFromInline let line: DeliveryLine<Downstream>

        /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose witness
        /// runs the unspecialised body (see ``ControlSignal``).
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Debounce<Upstream, Context>) {
            delivery = ScheduledDelivery(
                downstream: downstream, scheduler: publisher.scheduler, options: publisher.options)
            dueTime = publisher.dueTime
            line = DeliveryLine(downstream: downstream)
            state = Locked(DebounceState())
            control = Inner.controlEntry
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard state.withLock({ $0.subscribe(subscription) }) else {
                subscription.cancel()
                return
            }
            delivery.downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let restart = state.withLock { $0.receive(input) }
            let generation = restart.generation
            guard generation != 0 else { return .none }
            let clock = delivery.startTimer(every: dueTime) { self.fire(generation) }
            state.withLock { $0.started(generation, clock: clock) }?.cancel()
            restart.previous?.cancel()
            return .none
        }

        @inlinable
        func fire(_ generation: Int) {
            guard case .due(let value, let clock) = state.withLock({ $0.fire(generation) }) else { return }
            clock?.cancel()
            guard let value else { return }
            if let more = line.deliverNow(.value(value)), more > 0 {
                state.withLock { $0.request(more) }
            }
        }

        /// Schedules the completion without the options, as Combine does.
        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard let clock = state.withLock({ $0.complete() }) else { return }
            clock?.cancel()
            if line.enqueue(.completion(completion)) {
                delivery.schedule(withOptions: false) { _ = self.line.due() }
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
            state.withLock { $0.request(demand) }
        }

        @inlinable
        func cancelNow() {
            guard let (upstream, clock) = state.withLock({ $0.cancel() }) else { return }
            clock?.cancel()
            line.cancel()
            upstream.cancel()
        }

        @usableFromInline var description: String { "Debounce" }

        @usableFromInline var customMirror: Mirror {
            let (demand, current) = state.withLock { ($0.demand, $0.current) }
            let children: [Mirror.Child] = [
                ("downstream", delivery.downstream),
                ("downstreamDemand", demand),
                ("currentValue", current as Any),
            ]
            return Mirror(self, children: children)
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}
