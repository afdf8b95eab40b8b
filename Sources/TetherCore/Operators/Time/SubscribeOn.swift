extension Publisher {
    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    ///
    /// Subscribing to the upstream, and every request and cancel the subscriber makes, run on
    /// `scheduler`; values and the completion arrive on whatever thread the upstream sends them,
    /// and pass through unchanged, as does demand. Failures pass through as `Failure`.
    /// - Parameters:
    ///   - scheduler: The scheduler used to send messages to upstream publishers.
    ///   - options: Options that customize the delivery of elements.
    /// - Returns: A publisher which performs upstream operations on the specified scheduler.
    @inlinable
    public consuming func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
        -> Publishers.SubscribeOn<Self, S>
    {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    ///
    /// See ``Publisher/subscribe(on:options:)``.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The scheduler the publisher uses to subscribe, request and cancel.
        public let scheduler: Context

        /// Scheduler options that customize those operations.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that receives elements from an upstream publisher on a specific
        /// scheduler.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - scheduler: The scheduler the publisher uses to subscribe, request and cancel.
        ///   - options: Scheduler options that customize those operations.
        @inlinable
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        /// Subscribes to the upstream on the scheduler, through a subscription described as
        /// "SubscribeOn".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) {
                upstream.subscribe(inner)
            }
        }
    }
}

extension Publishers.SubscribeOn {
    /// The subscription: values pass straight through; requests and cancels hop to the
    /// scheduler before they reach the upstream.
    ///
    /// As in Combine: the subscriber is held for the subscription's life; a value or a completion
    /// before the upstream's subscription, and a cancel before it, are ignored; a request is
    /// passed on as it is, `.none` included; each scheduled request or cancel holds the
    /// subscription until it has run, and a request already scheduled still reaches the upstream
    /// when a cancel follows it. Requests reach the upstream one at a time (``DownstreamTurn``),
    /// and a request made from inside the upstream's `request` on the same thread traps, as
    /// Combine's does (its lock there is not recursive).
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        /// The kernel: the upstream's status, and the hand-off that tells the serial path without
        /// a lock whether the stream is subscribed and not over.
        @usableFromInline let link = UpstreamLink()
        @usableFromInline let scheduler: Context
        @usableFromInline let options: Context.SchedulerOptions?
        /// Held for the subscription's life, as Combine holds it.
        @usableFromInline let downstream: Downstream
        /// Whose turn it is to request from the upstream.
        @usableFromInline let requesting = DownstreamTurn()

        @inlinable
        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.options = options
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard link.accept(subscription) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            _ = link.handOff.leave()
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard link.handOff.enterIfSubscribed() else { return .none }
            let demand = downstream.receive(input)
            return link.handOff.leave() ? .none : demand
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            guard link.endIfSubscribed() != nil else { return }
            link.handOff.stopFromSerialPath()
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            guard let upstream = link.upstream else { return }
            scheduler.schedule(options: options) {
                self.requestUpstream(upstream, demand)
            }
        }

        @inlinable
        func requestUpstream(_ upstream: any Subscription, _ demand: Subscribers.Demand) {
            let took = requesting.run { upstream.request(demand) }
            precondition(
                took, "SubscribeOn was asked for demand from inside its upstream's request, which Combine traps on")
        }

        @inlinable
        func cancel() {
            guard let upstream = link.cancel(evenBeforeSubscription: false) else { return }
            scheduler.schedule(options: options) {
                withExtendedLifetime(self) { upstream.cancel() }
            }
        }

        @usableFromInline var description: String { "SubscribeOn" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}
