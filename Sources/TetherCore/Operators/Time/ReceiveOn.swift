extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// Values and the completion are delivered on `scheduler`, in the order the upstream sent
    /// them and never two at once; the subscription is handed over synchronously. Requests and
    /// cancels pass straight to the upstream, and the demand the subscriber returns from each
    /// value is requested from the upstream after the delivery. Failures pass through as
    /// `Failure`.
    ///
    /// As Combine's does, the subscription holds the subscriber for its whole life, and each
    /// delivery scheduled on `scheduler` holds the subscription until it has run: after a
    /// cancel, the subscriber stays alive until the pending deliveries have run, and is released
    /// with the subscription. Those deliveries deliver nothing, unless the upstream had already
    /// completed when the cancel came: what it sent before its completion, and the completion,
    /// still arrive (a `Just`'s value, say, cancelled before the scheduler ran).
    /// - Parameters:
    ///   - scheduler: The scheduler the publisher uses for element delivery.
    ///   - options: Scheduler options used to customize element delivery.
    /// - Returns: A publisher that delivers elements using the specified scheduler.
    @inlinable
    public consuming func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.ReceiveOn<Self, S>
    {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    ///
    /// See ``Publisher/receive(on:options:)``.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler the publisher uses to deliver elements.
        public let scheduler: Context

        /// Scheduler options used to customize element delivery.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that delivers elements to its downstream subscriber on a specific
        /// scheduler.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - scheduler: The scheduler the publisher uses to deliver elements.
        ///   - options: Scheduler options used to customize element delivery.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber` through a subscription described as "ReceiveOn".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }
}

extension Publishers.ReceiveOn {
    /// The subscription: each upstream signal is queued on its ``ScheduledStreamLine`` and one
    /// action per signal, scheduled through its ``ScheduledDelivery``, delivers it.
    ///
    /// As in Combine, each scheduled action holds the subscription until it has run, and the
    /// subscription holds the subscriber for its whole life.
    ///
    /// `@unchecked Sendable`: the upstream's link and what goes downstream live in `line` (its
    /// own lock); the rest is immutable.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, SpecializedControl,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline let delivery: ScheduledDelivery<Downstream, Context>
        @usableFromInline let line: ScheduledStreamLine<Downstream>
        /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose
        /// witness runs the unspecialised body (see ``ControlSignal``).
        @usableFromInline let control: (AnyObject, ControlSignal) -> Void

        @inlinable
        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            delivery = ScheduledDelivery(downstream: downstream, scheduler: scheduler, options: options)
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
                delivery.schedule { self.line.due() }
            }
            return .none
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if line.receive(completion: completion) {
                delivery.schedule { self.line.due() }
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

        @usableFromInline var description: String { "ReceiveOn" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
