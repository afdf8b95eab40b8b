extension Publisher {
    /// Delays delivery of all output to the downstream receiver by a specified amount of time on
    /// a particular scheduler.
    ///
    /// Each value and the completion (finished or failed, as Apple documents: "delays delivery
    /// of elements and completion") is delivered on `scheduler`, `interval` after it arrived,
    /// in arrival order; the subscription is handed over synchronously. Requests and cancels
    /// pass straight to the upstream, and the demand the subscriber returns from each value is
    /// requested from the upstream after the delivery. Cancelling drops what is still waiting.
    ///
    /// As Combine's does, the subscription holds the subscriber for its whole life, and each
    /// delivery scheduled on `scheduler` holds the subscription until it has run: after a
    /// cancel, the subscriber stays alive until the pending deliveries have run (they deliver
    /// nothing), and is released with the subscription.
    /// - Parameters:
    ///   - interval: The amount of time to delay.
    ///   - tolerance: The allowed tolerance in delivering delayed events; `nil` uses the
    ///     scheduler's minimum tolerance.
    ///   - scheduler: The scheduler to deliver the delayed events.
    ///   - options: Options relevant to the scheduler's behavior.
    /// - Returns: A publisher that delays delivery of elements and completion to the downstream
    ///   receiver; its failure type is the upstream's.
    @inlinable
    public consuming func delay<S: Scheduler>(
        for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.Delay<Self, S> {
        Publishers.Delay(
            upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
            scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delays delivery of elements and completion to the downstream receiver.
    ///
    /// See ``Publisher/delay(for:tolerance:scheduler:options:)``.
    public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives its elements.
        public let upstream: Upstream

        /// The amount of time to delay.
        public let interval: Context.SchedulerTimeType.Stride

        /// The allowed tolerance in firing delayed events.
        public let tolerance: Context.SchedulerTimeType.Stride

        /// The scheduler to deliver the delayed events.
        public let scheduler: Context

        /// Options relevant to the scheduler's behavior.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delays delivery of elements and completion to the downstream
        /// receiver.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives its elements.
        ///   - interval: The amount of time to delay.
        ///   - tolerance: The allowed tolerance in delivering delayed events.
        ///   - scheduler: The scheduler to deliver the delayed events.
        ///   - options: Options relevant to the scheduler's behavior.
        @inlinable
        public init(
            upstream: Upstream, interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
            scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.upstream = upstream
            self.interval = interval
            self.tolerance = tolerance
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber` through a subscription described as "Delay".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Delay {
    /// The subscription: each upstream signal is queued on its ``ScheduledStreamLine``, and an
    /// action scheduled `interval` later through its ``ScheduledDelivery`` delivers it.
    ///
    /// As in Combine, each scheduled action holds the subscription until it has run, the
    /// subscription holds the subscriber for its whole life, and it has no description or mirror
    /// of its own.
    ///
    /// `@unchecked Sendable`: the upstream's link and what goes downstream live in `line` (its
    /// own lock); the rest is immutable.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, SpecializedControl,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline let delivery: ScheduledDelivery<Downstream, Context>
        @usableFromInline let interval: Context.SchedulerTimeType.Stride
        @usableFromInline let tolerance: Context.SchedulerTimeType.Stride
        @usableFromInline let line: ScheduledStreamLine<Downstream>
        /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose
        /// witness runs the unspecialised body (see ``ControlSignal``).
        @usableFromInline let control: (AnyObject, ControlSignal) -> Void

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Delay<Upstream, Context>) {
            delivery = ScheduledDelivery(
                downstream: downstream, scheduler: publisher.scheduler, options: publisher.options)
            interval = publisher.interval
            tolerance = publisher.tolerance
            line = ScheduledStreamLine(downstream: downstream)
            control = Inner.controlEntry
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard line.attach(subscription) else {
                subscription.cancel()
                return
            }
            delivery.downstream.receive(subscription: self)
            // What came due on another thread meanwhile waited for the subscriber to return.
            if line.handedOver() {
                delivery.schedule { self.line.due() }
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if line.receive(input) {
                delivery.schedule(after: interval, tolerance: tolerance) { self.line.due() }
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if line.receive(completion: completion) {
                delivery.schedule(after: interval, tolerance: tolerance) { self.line.due() }
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

        /// Forwards `demand`, `.none` included, as Combine does.
        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            line.requestTarget?.request(demand)
        }

        @inlinable
        func cancelNow() {
            line.cancel()
        }
    }
}
