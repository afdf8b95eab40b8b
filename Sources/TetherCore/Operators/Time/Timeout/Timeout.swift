extension Publisher {
    /// Terminates publishing if the upstream publisher exceeds the specified time interval
    /// without producing an element.
    ///
    /// The clock, a repeating timer on `scheduler`, starts when the subscription arrives and
    /// restarts at the subscriber's first request and with every value. If it runs out, the
    /// upstream is cancelled and the subscriber receives the failure `customError` returns, or
    /// `.finished` when `customError` is `nil`. Values and the completion are delivered on
    /// `scheduler`; requests (`.none` included) and cancels pass straight to the upstream, and
    /// the demand the subscriber returns from each value is requested from the upstream after
    /// the delivery. Events before the subscription, and a cancel before it, are ignored.
    ///
    /// A clock that runs out on another thread while the subscriber is still receiving its
    /// subscription cancels the upstream at once and completes the subscriber, on `scheduler`,
    /// once its `receive(subscription:)` has returned (unless it cancelled meanwhile); one run out
    /// beneath that call, on its thread, completes it there. As in Combine, a scheduler that runs
    /// the first clock's action inside `schedule` itself (`ImmediateScheduler`) traps.
    ///
    /// As Combine's does, the subscription holds the subscriber for its whole life, and the
    /// work scheduled on `scheduler` (the clock, each delivery) holds the subscription until it
    /// has run or, for the clock, until the scheduler lets go of it once cancelled: after a
    /// cancel, the subscriber stays alive until then.
    /// - Parameters:
    ///   - interval: The maximum time interval the publisher can go without emitting an
    ///     element, expressed in the time system of the scheduler.
    ///   - scheduler: The scheduler on which to deliver events.
    ///   - options: Scheduler options that customize the delivery of elements.
    ///   - customError: A closure that executes if the publisher times out; the publisher
    ///     sends the failure it returns to the subscriber as the reason for termination.
    /// - Returns: A publisher that terminates if the specified interval elapses with no events
    ///   received from the upstream publisher; its failure type is the upstream's.
    @inlinable
    public consuming func timeout<S: Scheduler>(
        _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
        customError: (() -> Failure)? = nil
    ) -> Publishers.Timeout<Self, S> {
        Publishers.Timeout(
            upstream: self, interval: interval, scheduler: scheduler, options: options, customError: customError)
    }
}

extension Publishers {
    /// A publisher that terminates publishing if the upstream publisher exceeds a specified
    /// time interval without producing an element.
    ///
    /// See ``Publisher/timeout(_:scheduler:options:customError:)``.
    public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum time interval the publisher can go without emitting an element,
        /// expressed in the time system of the scheduler.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler on which to deliver events.
        public let scheduler: Context

        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// A closure that executes if the publisher times out; the publisher sends the failure
        /// it returns to the subscriber as the reason for termination.
        public let customError: (() -> Upstream.Failure)?

        /// Creates a publisher that terminates publishing if the upstream publisher exceeds the
        /// specified time interval without producing an element.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - interval: The maximum time interval the publisher can go without emitting an
        ///     element.
        ///   - scheduler: The scheduler on which to deliver events.
        ///   - options: Scheduler options that customize the delivery of elements.
        ///   - customError: A closure that executes if the publisher times out.
        @inlinable
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
            options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
        ) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.options = options
            self.customError = customError
        }

        /// Attaches `subscriber` through a subscription described as "Timeout".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Timeout {
    /// The subscription: a ``TimeoutState`` under a lock, a ``ScheduledDelivery`` for the clock
    /// (a repeating timer) and the deliveries, and a ``DeliveryLine`` for what goes out.
    ///
    /// As in Combine, the clock and the scheduled deliveries hold the subscription strongly:
    /// the clock until it is cancelled (by a value, the upstream's completion, a cancel or the
    /// time-out) and the scheduler lets go of it, a delivery until it has run. The subscription
    /// holds the subscriber for its whole life.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline let delivery: ScheduledDelivery<Downstream, Context>
        @usableFromInline let state = Locked(TimeoutState())
        @usableFromInline let interval: Context.SchedulerTimeType.Stride
        @usableFromInline let customError: (() -> Upstream.Failure)?
        @usableFromInline let line: DeliveryLine<Downstream>

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Timeout<Upstream, Context>) {
            delivery = ScheduledDelivery(
                downstream: downstream, scheduler: publisher.scheduler, options: publisher.options)
            interval = publisher.interval
            customError = publisher.customError
            line = DeliveryLine(downstream: downstream)
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let thread = DownstreamTurn.currentThread
            guard let generation = state.withLock({ $0.subscribe(subscription, on: thread) }) else {
                subscription.cancel()
                return
            }
            startClock(generation)
            // Values that came due on another thread meanwhile waited for the subscriber to return.
            if line.handOver(self, to: delivery.downstream) {
                delivery.schedule { self.deliverDue() }
            }
            // A clock that ran out on another thread meanwhile left the completion to this one.
            if state.withLock({ $0.delivered() }) {
                scheduleTimeOut()
            }
        }

        /// Starts clock number `generation` and stops the one it replaces.
        @inlinable
        func startClock(_ generation: Int) {
            let clock = delivery.startTimer(every: interval) { self.fire(generation) }
            state.withLock { $0.started(generation, clock: clock) }?.cancel()
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard let generation = state.withLock({ $0.receiveValue() }) else { return .none }
            startClock(generation)
            if line.enqueue(.value(input)) {
                delivery.schedule { self.deliverDue() }
            }
            return .none
        }

        @inlinable
        func deliverDue() {
            let demand = line.due()
            if demand > 0, let upstream = state.withLock({ $0.upstream }) {
                upstream.request(demand)
            }
        }

        @inlinable
        func fire(_ generation: Int) {
            let thread = DownstreamTurn.currentThread
            switch state.withLock({ $0.fire(generation, on: thread) }) {
            case .ignore:
                return
            case .timedOutBeforeDelivery(let upstream, let clock):
                clock?.cancel()
                upstream.cancel()
            case .tooEarly:
                preconditionFailure(
                    "Timeout's clock fired before the subscriber received its subscription: "
                        + "the scheduler ran a timed action at once (ImmediateScheduler cannot time a stream out)")
            case .timedOut(let upstream, let clock):
                clock?.cancel()
                upstream.cancel()
                _ = line.deliverNow(.completion(timeOutCompletion()))
            }
        }

        @inlinable
        func timeOutCompletion() -> Subscribers.Completion<Failure> {
            customError.map { .failure($0()) } ?? .finished
        }

        /// Completes the subscriber on the scheduler, for a time-out found while the subscriber
        /// was still receiving its subscription on another thread.
        @inlinable
        func scheduleTimeOut() {
            guard line.enqueue(.completion(timeOutCompletion())) else { return }
            delivery.schedule { _ = self.line.due() }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard let clock = state.withLock({ $0.complete() }) else { return }
            clock?.cancel()
            guard line.enqueue(.completion(completion)) else { return }
            delivery.schedule {
                if self.state.withLock({ $0.deliverCompletion() }) {
                    _ = self.line.due()
                }
            }
        }

        /// Forwards `demand` upstream, `.none` included, as Combine does; the first request
        /// restarts the clock.
        @inlinable
        func request(_ demand: Subscribers.Demand) {
            let (upstream, generation) = state.withLock { $0.request() }
            if let generation {
                startClock(generation)
            }
            upstream?.request(demand)
        }

        @inlinable
        func cancel() {
            guard let ended = state.withLock({ $0.cancel() }) else { return }
            ended.clock?.cancel()
            line.cancel()
            ended.upstream?.cancel()
        }

        @usableFromInline var description: String { "Timeout" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
