extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    ///
    /// Each closure runs just before the event it observes is passed on: `receiveSubscription`,
    /// `receiveOutput` and `receiveCompletion` on the thread that delivers the upstream's signal;
    /// `receiveRequest` and `receiveCancel` on the thread that requests or cancels.
    /// `receiveRequest` also sees the extra demand the subscriber returns from `receive(_:)`.
    /// Demand and failures pass through unchanged. Completion or cancellation releases the
    /// subscriber and every closure; signals the upstream sends after that are ignored.
    ///
    /// As in Combine, a value or a completion that arrives before the upstream's subscription is
    /// still passed on (the downstream's demand going back for a value).
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that executes when the publisher receives the subscription from the
        /// upstream publisher.
        public var receiveSubscription: ((any Subscription) -> Void)?

        /// A closure that executes when the publisher receives a value from the upstream
        /// publisher.
        public var receiveOutput: ((Output) -> Void)?

        /// A closure that executes when the upstream publisher finishes normally or terminates
        /// with an error.
        public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

        /// A closure that executes when the downstream receiver cancels publishing.
        public var receiveCancel: (() -> Void)?

        /// A closure that executes when the publisher receives a request for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that performs the specified closures when publisher events occur.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - receiveSubscription: A closure that executes when the publisher receives the
        ///     subscription from the upstream publisher.
        ///   - receiveOutput: A closure that executes when the publisher receives a value from
        ///     the upstream publisher.
        ///   - receiveCompletion: A closure that executes when the upstream publisher finishes
        ///     normally or terminates with an error.
        ///   - receiveCancel: A closure that executes when the downstream receiver cancels
        ///     publishing.
        ///   - receiveRequest: A closure that executes when the publisher receives a request for
        ///     more elements.
        @inlinable
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches `subscriber` through a subscription described as "HandleEvents".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, events: self))
        }
    }
}

extension Publishers.HandleEvents {
    /// The subscription: runs the hooks around each signal it relays.
    ///
    /// As Combine's, it holds the downstream for its whole life and, once the stream has ended
    /// (a completion or a cancel), still passes every upstream value and completion on, without
    /// running the hooks; a `cancel` before the subscription is ignored, and a request before it
    /// runs `receiveRequest`. Who ends the stream is decided under the `shared` lock, while the
    /// serial-path hooks are handed over through a ``ReleaseHandOff`` so that a value takes no lock.
    /// `receiveRequest` is kept twice: the serial path calls its own copy for demand returned from
    /// `receive(_:)`, `request(_:)` calls the locked one.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, SpecializedControl,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output

        /// What the upstream's serial path needs; `nil` once released.
        @usableFromInline
        internal struct Owned {
            @usableFromInline let receiveSubscription: ((any Subscription) -> Void)?
            @usableFromInline let receiveOutput: ((Output) -> Void)?
            @usableFromInline let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
            @usableFromInline let receiveRequest: ((Subscribers.Demand) -> Void)?

            @inlinable
            init(events: Publishers.HandleEvents<Upstream>) {
                receiveSubscription = events.receiveSubscription
                receiveOutput = events.receiveOutput
                receiveCompletion = events.receiveCompletion
                receiveRequest = events.receiveRequest
            }
        }

        /// What the downstream's `request` and `cancel` need, from any thread.
        @usableFromInline
        internal struct Shared {
            @usableFromInline var link = UpstreamStatus.awaitingSubscription
            @usableFromInline var receiveRequest: ((Subscribers.Demand) -> Void)?
            @usableFromInline var receiveCancel: (() -> Void)?

            @inlinable
            init(receiveRequest: ((Subscribers.Demand) -> Void)?, receiveCancel: (() -> Void)?) {
                self.receiveRequest = receiveRequest
                self.receiveCancel = receiveCancel
            }

            /// Ends the stream, returning everything it held so the caller releases it unlocked.
            @inlinable
            mutating func terminate() -> Shared {
                let previous = self
                link = .terminal
                receiveRequest = nil
                receiveCancel = nil
                return previous
            }

            /// The upstream's subscription arrives.
            /// - Returns: `false` for a second one, or one after the end: the caller cancels it.
            @inlinable
            mutating func accept(_ subscription: any Subscription) -> Bool {
                link.attach(subscription)
            }

            /// The downstream requests.
            /// - Returns: The upstream to pass the demand to while the stream lasts, and the hook
            ///   to run first (Combine runs it before the subscription too).
            @inlinable
            func request() -> (upstream: (any Subscription)?, hook: ((Subscribers.Demand) -> Void)?) {
                (link.subscription, receiveRequest)
            }

            /// The downstream cancels.
            /// - Returns: Before the subscription, the cancel hook alone (Combine runs it, and
            ///   subscribes normally when the subscription comes); otherwise everything the
            ///   stream held, ended, for the caller to act on and release unlocked.
            @inlinable
            mutating func cancel() -> (early: (() -> Void)?, ended: Shared?) {
                if case .awaitingSubscription = link { return (receiveCancel, nil) }
                return (nil, terminate())
            }
        }

        @usableFromInline
        internal let shared: Locked<Shared>

        @usableFromInline
        internal let handOff = ReleaseHandOff()

        /// Held for the whole life, as Combine holds it.
        @usableFromInline
        internal let downstream: Downstream

        /// Read and written only on the serial path, or by the side the hand-off names.
        @usableFromInline
        @exclusivity(unchecked)
        internal var owned: Owned?

        /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose witness
        /// runs the unspecialised body (see ``ControlSignal``).
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        @inlinable
        internal init(downstream: Downstream, events: Publishers.HandleEvents<Upstream>) {
            self.downstream = downstream
            owned = Owned(events: events)
            shared = Locked(Shared(receiveRequest: events.receiveRequest, receiveCancel: events.receiveCancel))
            control = Inner.controlEntry
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func receive(subscription: any Subscription) {
            guard shared.withLock({ $0.accept(subscription) }) else {
                // Combine runs the hook for a subscription it turns away, until the stream ends.
                if handOff.enterEvenBeforeSubscription() {
                    owned?.receiveSubscription?(subscription)
                    if handOff.leave() {
                        owned = nil
                    }
                }
                subscription.cancel()
                return
            }
            // Nobody can have stopped the stream yet: the downstream has not seen this object.
            handOff.open()
            owned?.receiveSubscription?(subscription)
            downstream.receive(subscription: self)
            if handOff.leave() {
                owned = nil
            }
        }

        @inlinable
        internal func receive(_ input: Output) -> Subscribers.Demand {
            // After the end the value still goes down, without the hooks. The hook is called
            // where it is kept: binding `owned` copied all four hooks, a value.
            guard handOff.enterEvenBeforeSubscription() else { return downstream.receive(input) }
            owned?.receiveOutput?(input)
            let demand = downstream.receive(input)
            // Still inside the delivery, which keeps `owned` from a cancel on another thread. A
            // subscriber that cancelled from inside `receive(_:)` has ended the stream, and
            // Combine runs no hook for the demand it returns (OpenCombine's
            // `testCancelAlreadyCancelled`, run against Combine); `leave()` alone does not say so
            // for a delivery nested in the subscription's hand-over.
            if demand > 0, !handOff.hasStopped() {
                owned?.receiveRequest?(demand)
            }
            if handOff.leave() {
                owned = nil
            }
            return demand
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>) {
            let previous = shared.withLock { $0.terminate() }
            switch previous.link {
            case .terminal:
                // After the end the completion still goes down, without the hook.
                downstream.receive(completion: completion)
            case .awaitingSubscription, .subscribed:
                handOff.stopFromSerialPath()
                let released = owned
                owned = nil
                released?.receiveCompletion?(completion)
                downstream.receive(completion: completion)
            }
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            control(self, .request(demand))
        }

        @inlinable
        internal func cancel() {
            control(self, .cancel)
        }

        @inlinable
        internal func requestNow(_ demand: Subscribers.Demand) {
            let (upstream, hook) = shared.withLock { $0.request() }
            hook?(demand)
            upstream?.request(demand)
        }

        @inlinable
        internal func cancelNow() {
            let (early, previous) = shared.withLock { $0.cancel() }
            early?()
            guard let previous, case .subscribed(let upstream) = previous.link else { return }
            previous.receiveCancel?()
            if handOff.stopFromOutside() {
                owned = nil
            }
            upstream.cancel()
        }

        @usableFromInline
        internal var description: String { "HandleEvents" }

        @usableFromInline
        internal var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Performs the specified closures when publisher events occur.
    ///
    /// Each closure runs just before the event it observes is passed on. Demand and failures
    /// pass through unchanged.
    /// - Parameters:
    ///   - receiveSubscription: An optional closure that executes when the publisher receives
    ///     the subscription from the upstream publisher. This value defaults to `nil`.
    ///   - receiveOutput: An optional closure that executes when the publisher receives a value
    ///     from the upstream publisher. This value defaults to `nil`.
    ///   - receiveCompletion: An optional closure that executes when the upstream publisher
    ///     finishes normally or terminates with an error. This value defaults to `nil`.
    ///   - receiveCancel: An optional closure that executes when the downstream receiver
    ///     cancels publishing. This value defaults to `nil`.
    ///   - receiveRequest: An optional closure that executes when the publisher receives a
    ///     request for more elements. This value defaults to `nil`.
    /// - Returns: A publisher that performs the specified closures when publisher events occur.
    @inlinable
    public consuming func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest)
    }
}
