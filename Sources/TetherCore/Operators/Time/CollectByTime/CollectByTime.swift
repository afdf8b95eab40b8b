extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the
    /// collection.
    ///
    /// `.byTime` publishes, every `stride`, the values gathered since the last publication
    /// (nothing when none were); it takes every value the upstream sends, asking, as Combine
    /// does, for one value at a time (one each time the subscriber requests, one more with each
    /// value). `.byTimeOrCount` also publishes as soon as `count` values have gathered, and asks
    /// the upstream for `count` values per array the subscriber demands, except for demand the
    /// subscriber returns from an array the timer published: as in Combine, that lets more
    /// arrays go out but asks the upstream for nothing. An array goes out only when the
    /// subscriber has outstanding demand; until then values keep gathering. When the upstream finishes, what
    /// is left is published before `.finished`; a failure drops it and passes through as
    /// `Failure`. Arrays and the completion are delivered on the strategy's scheduler.
    /// - Parameters:
    ///   - strategy: The timing group strategy used by the operator to collect and publish
    ///     elements.
    ///   - options: Scheduler options to use for the strategy.
    /// - Returns: A publisher that collects elements by a given strategy, and emits a single
    ///   array of the collection.
    @inlinable
    public consuming func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

extension Publishers {
    /// A publisher that buffers and periodically publishes its items.
    ///
    /// See ``Publisher/collect(_:options:)``.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: groups of the upstream's.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// The strategy with which to collect and publish elements.
        public let strategy: Publishers.TimeGroupingStrategy<Context>

        /// `Scheduler` options to use for the strategy.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that buffers and periodically publishes its items.
        /// - Parameters:
        ///   - upstream: The publisher that this publisher receives elements from.
        ///   - strategy: The strategy with which to collect and publish elements.
        ///   - options: `Scheduler` options to use for the strategy.
        @inlinable
        public init(
            upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?
        ) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches `subscriber` through a subscription described as "CollectByTime"; traps
        /// unless a `.byTimeOrCount` count is positive.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            switch strategy {
            case .byTime(let scheduler, let stride):
                upstream.subscribe(
                    Inner(
                        downstream: subscriber, scheduler: scheduler, stride: stride, count: nil, options: options))
            case .byTimeOrCount(let scheduler, let stride, let count):
                precondition(count > 0, "collect(.byTimeOrCount) needs a positive count, not \(count)")
                upstream.subscribe(
                    Inner(
                        downstream: subscriber, scheduler: scheduler, stride: stride, count: count, options: options
                    ))
            }
        }
    }
}

extension Publishers.CollectByTime {
    /// The subscription: a ``CollectByTimeState`` under a lock, a repeating timer, and a
    /// ``DeliveryLine`` for what goes out.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Failure {
        @usableFromInline typealias Input = Upstream.Output
        @usableFromInline let link = UpstreamLink()
        @usableFromInline let line: DeliveryLine<Downstream>
        @usableFromInline let state: Locked<CollectByTimeState<Upstream.Output>>
        /// The repeating timer, cancelled when the stream ends.
        @usableFromInline let timer = Locked<(any Cancellable)?>(nil)
        @usableFromInline let scheduler: Context
        @usableFromInline let stride: Context.SchedulerTimeType.Stride
        @usableFromInline let options: Context.SchedulerOptions?

        @inlinable
        init(
            downstream: Downstream, scheduler: Context, stride: Context.SchedulerTimeType.Stride, count: Int?,
            options: Context.SchedulerOptions?
        ) {
            line = DeliveryLine(downstream: downstream)
            state = Locked(CollectByTimeState(count: count))
            self.scheduler = scheduler
            self.stride = stride
            self.options = options
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard link.attach(subscription), let downstream = line.downstream else {
                subscription.cancel()
                return
            }
            // Weak: the repeating timer must not keep a stream alive that nobody holds. A captured
            // `weak let` rather than `[weak self]`, whose every tick's read the run time checks for
            // exclusivity (Docs/FastWithoutTheSpecialiser.md).
            weak let inner = self
            let repeating = scheduler.schedule(
                after: scheduler.now.advanced(by: stride), interval: stride, tolerance: scheduler.minimumTolerance,
                options: options
            ) { inner?.tick() }
            timer.withLock { $0 = repeating }
            // Nothing asked of the upstream until the downstream asks (see `request`).
            // Full groups that came due on another thread meanwhile waited for the subscriber to
            // return (a tick meanwhile takes nothing: see `tick`).
            if line.handOver(self, to: downstream) {
                scheduler.schedule(options: options) { self.deliverDue() }
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            let (group, more) = state.withLock { ($0.receive(input), $0.upstreamDemandPerValue) }
            if let group, line.enqueue(.value(group)) {
                scheduler.schedule(options: options) { self.deliverDue() }
            }
            return more
        }

        @inlinable
        func tick() {
            // While the subscriber is still inside `receive(subscription:)` on another thread,
            // the gathered values wait for the next tick: a group taken now would wait in the
            // line, and the demand it returned would then be asked of the upstream rather than
            // granted.
            guard !line.handsOverElsewhere, let group = state.withLock({ $0.tick() }) else { return }
            if let more = line.deliverNow(.value(group)), more > 0 {
                state.withLock { $0.grant(more) }
            }
        }

        @inlinable
        func deliverDue() {
            let more = line.due()
            if more > 0 {
                askUpstream(more)
            }
        }

        @inlinable
        func askUpstream(_ more: Subscribers.Demand) {
            let upstreamDemand = state.withLock { $0.request(more) }
            if upstreamDemand > 0 {
                link.upstream?.request(upstreamDemand)
            }
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard link.terminate().ended else { return }
            let failed = completion.isFailure
            let (ended, rest) = state.withLock { $0.finish(failed: failed) }
            stopTimer()
            guard ended else { return }
            if let rest, line.enqueue(.value(rest)) {
                scheduler.schedule(options: options) { self.deliverDue() }
            }
            if line.enqueue(.completion(completion)) {
                scheduler.schedule(options: options) { self.deliverDue() }
            }
        }

        @inlinable
        func stopTimer() {
            let repeating = timer.withLock { timer -> (any Cancellable)? in
                defer { timer = nil }
                return timer
            }
            repeating?.cancel()
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: CollectByTime was asked for .none")
            askUpstream(demand)
        }

        @inlinable
        func cancel() {
            let (_, upstream) = link.terminate()
            state.withLock { $0.cancel() }
            stopTimer()
            line.cancel()
            upstream?.cancel()
        }

        @usableFromInline var description: String { "CollectByTime" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
