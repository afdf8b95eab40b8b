extension Publisher {
    /// Publishes either the most-recent or first element published by the upstream publisher
    /// in the specified time interval.
    ///
    /// A value that arrives when nothing went out during the last `interval` (the first value,
    /// for one) is published at once. Values arriving sooner are held until the interval since
    /// the last publication ends; then the most recent of them (`latest: true`) or the first
    /// (`latest: false`) is published. When the upstream finishes, a held value is published
    /// before the completion. The operator hands its subscription downstream, then asks the
    /// upstream for `.unlimited`, so a value the upstream sends at once (a `@Published`
    /// property's) meets the demand the subscriber asked for on subscription; a value that
    /// finds no outstanding demand is dropped. Values and the completion are delivered on
    /// `scheduler`. Failures pass through as `Failure`.
    /// - Parameters:
    ///   - interval: The interval at which to find and emit either the most recent or the
    ///     first element, expressed in the time system of the scheduler.
    ///   - scheduler: The scheduler on which to publish elements.
    ///   - latest: Whether to publish the most recent element; if `false`, the publisher emits
    ///     the first element received during the interval.
    /// - Returns: A publisher that emits either the most-recent or first element received
    ///   during the specified interval.
    @inlinable
    public consuming func throttle<S: Scheduler>(for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool)
        -> Publishers.Throttle<Self, S>
    {
        Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
    }
}

extension Publishers {
    /// A publisher that publishes either the most-recent or first element published by the
    /// upstream publisher in a specified time interval.
    ///
    /// See ``Publisher/throttle(for:scheduler:latest:)``.
    public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The interval in which to find and emit the most recent element.
        public let interval: Context.SchedulerTimeType.Stride

        /// The scheduler on which to publish elements.
        public let scheduler: Context

        /// A Boolean value indicating whether to publish the most recent element; if `false`,
        /// the publisher emits the first element received during the interval.
        public let latest: Bool

        /// Creates a publisher that publishes either the most-recent or first element published
        /// by the upstream publisher in a specified time interval.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - interval: The interval in which to find and emit the most recent element.
        ///   - scheduler: The scheduler on which to publish elements.
        ///   - latest: Whether to publish the most recent element.
        @inlinable
        public init(upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context, latest: Bool) {
            self.upstream = upstream
            self.interval = interval
            self.scheduler = scheduler
            self.latest = latest
        }

        /// Attaches `subscriber` through a subscription described as "Throttle".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Throttle {
    /// The subscription: a ``ThrottleState`` under a lock, and a ``DeliveryLine`` for what goes
    /// out. Scheduled emissions hold the subscription weakly, as in Combine.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, SpecializedControl,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline typealias State = ThrottleState<Output, Failure, Context.SchedulerTimeType>
        @usableFromInline let line: DeliveryLine<Downstream>
        @usableFromInline let state: Locked<State>
        @usableFromInline let scheduler: Context

        /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose witness
        /// runs the unspecialised body (see ``ControlSignal``).
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        @inlinable
        init(downstream: Downstream, publisher: Publishers.Throttle<Upstream, Context>) {
            line = DeliveryLine(downstream: downstream)
            state = Locked(State(interval: publisher.interval, latest: publisher.latest))
            scheduler = publisher.scheduler
            // Combine reads the clock when it is subscribed and again when the upstream's
            // subscription arrives; a scheduler sees every read, so Tether makes the same ones.
            _ = scheduler.now
            control = Inner.controlEntry
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard state.withLock({ $0.subscribe(subscription) }), let downstream = line.downstream else {
                subscription.cancel()
                return
            }
            _ = scheduler.now
            // The downstream first, so that the demand it asks for there meets a value the
            // upstream sends as soon as it is asked (a `CurrentValueSubject`'s, a `@Published`
            // property's): Combine publishes that value (observed against Apple's Combine in the
            // "Using Combine" book's tests, iOS 14), where asking the upstream first dropped it.
            downstream.receive(subscription: self)
            subscription.request(.unlimited)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard state.withLock({ $0.phase.isSubscribed() }) else { return .none }
            let now = scheduler.now
            switch state.withLock({ $0.receive(input, now: now) }) {
            case .none:
                break
            case .emitNow:
                scheduleEmission(at: nil)
            case .emit(let instant):
                scheduleEmission(at: instant)
            }
            return .none
        }

        /// Schedules ``emit()`` at `instant`, or at once, holding this subscription weakly as
        /// Combine's scheduled emissions do: through a captured `weak let`, made only when an
        /// emission is scheduled, rather than `[weak self]`, whose read the run time checks for
        /// exclusivity (Docs/FastWithoutTheSpecialiser.md).
        @inlinable
        func scheduleEmission(at instant: Context.SchedulerTimeType?) {
            weak let inner = self
            if let instant {
                scheduler.schedule(after: instant) { inner?.emit() }
            } else {
                scheduler.schedule { inner?.emit() }
            }
        }

        @inlinable
        func emit() {
            let now = state.withLock { $0.emitsOnlyAValue } ? scheduler.now : nil
            guard let (value, completion) = state.withLock({ $0.emit(now: now) }) else { return }
            if let value, let more = line.deliverNow(.value(value)), more > 0 {
                state.withLock { $0.request(more) }
            }
            if let completion {
                _ = line.deliverNow(.completion(completion))
            }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard state.withLock({ $0.phase.isSubscribed() }) else { return }
            _ = scheduler.now
            if state.withLock({ $0.complete(completion) }) {
                scheduleEmission(at: nil)
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

        /// Adds `demand`; `.none` does nothing, as in Combine.
        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            state.withLock { $0.request(demand) }
        }

        @inlinable
        func cancelNow() {
            let upstream = state.withLock { $0.cancel() }
            line.cancel()
            upstream?.cancel()
        }

        @usableFromInline var description: String { "Throttle" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
