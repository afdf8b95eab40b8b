extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// The sink requests `.unlimited` as soon as it receives its subscription, calls
    /// ``receiveValue`` for each value and ``receiveCompletion`` once at the end. As in Combine,
    /// it lets go of both closures when it completes and when it is cancelled after its
    /// subscription arrived, which breaks the cycle a closure capturing its owner would otherwise
    /// form; values and a completion arriving after that reach no closure. A cancel before the
    /// subscription keeps the closures and cancels the subscription when it arrives. ``cancel()``
    /// is thread-safe and cancels the subscription once; a second subscription is cancelled on
    /// arrival.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// Where the upstream stands; read and written only under `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        internal var status = UpstreamStatus.awaitingSubscription

        /// Tells a ``CancellableBag`` or ``Lifetime`` holding this sink that it has finished;
        /// read and written only under `lock`.
        @usableFromInline
        @exclusivity(unchecked)
        internal var termination = TerminationHandlers.running([])

        /// Guards `status` and `termination`: beside them rather than around them, so that the
        /// lock's four bytes and the hand-off's share one word and the sink takes 104 bytes (a
        /// 112-byte allocation rather than 128).
        @usableFromInline
        internal let lock = Locked(())

        /// Decides whether a cancel or the signal in flight lets go of the closures.
        @usableFromInline
        internal let handOff = ReleaseHandOff()

        // Read and written on the publisher's serial signal path, or by the side `handOff` names
        // once the stream has stopped: never two threads at once, so the per-value dynamic
        // exclusivity check is skipped.
        @usableFromInline
        @exclusivity(unchecked)
        internal var onValue: ((Input) -> Void)?

        @usableFromInline
        @exclusivity(unchecked)
        internal var onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

        /// The closure to execute on receipt of a value; a no-op once the sink has completed or
        /// been cancelled.
        public var receiveValue: (Input) -> Void { onValue ?? { _ in } }

        /// The closure to execute on completion; a no-op once the sink has completed or been
        /// cancelled.
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            onCompletion ?? { _ in }
        }

        /// Initializes a sink with the provided closures.
        ///
        /// - Parameters:
        ///   - receiveCompletion: The closure to execute on completion.
        ///   - receiveValue: The closure to execute on receipt of a value.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            onValue = receiveValue
            onCompletion = receiveCompletion
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        /// Stores the subscription and requests `.unlimited`; cancels any later subscription.
        /// - Parameter subscription: The subscription from the publisher.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = lock.withLock { _ in status.attach(subscription) }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Calls ``receiveValue`` with the value, as Combine does even before the subscription.
        /// - Parameter value: The published value.
        /// - Returns: `.none`: the sink asked for everything on subscription.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            guard handOff.enterEvenBeforeSubscription() else { return .none }
            // Borrowed: the hand-off leaves a cancel's release to the end of this delivery.
            InPlace.call(&onValue, with: value)
            if handOff.leave() {
                releaseClosures()
            }
            return .none
        }

        /// Lets go of both closures, then calls the completion closure.
        ///
        /// Both are taken before the call, so a value or completion sent again from inside
        /// ``receiveCompletion`` reaches nothing, as in Combine.
        /// - Parameter completion: How the publisher finished.
        // Specialised, never inlined: once a stream, and inlined it weighed on publishers' delivery
        // loops (Docs/FastWithoutTheSpecialiser.md, "A subscriber's once-a-stream signals").
        @inlinable @inline(never)
        public func receive(completion: Subscribers.Completion<Failure>) {
            // A completion after a cancel finds the closures gone (or going, with the delivery in
            // flight that will release them).
            // From inside a value's delivery (a publisher that completes reentrantly), the value
            // closure is still running where it is kept: that delivery lets go of it as it
            // leaves.
            guard let releaseNow = handOff.enterToStopEvenBeforeSubscription() else { return }
            // Moved out rather than copied (no retain and release of its context): a value's
            // delivery beneath this one calls only the value closure, and nothing else touches
            // them once the hand-off has stopped. Not `take()`, which goes through a generic
            // `Optional` and wraps the closure in a reabstraction thunk, an allocation each way.
            let receiveCompletion = onCompletion
            onCompletion = nil
            if releaseNow {
                releaseClosures()
            }
            // One lock for both ends; the subscription is released after it, and the handlers
            // run after the completion closure (one observed meanwhile is told the sink ended).
            let (_, handlers) = lock.withLock { _ in (UpstreamStatus.end(&status), termination.end()) }
            receiveCompletion?(completion)
            for handler in handlers { handler() }
        }

        /// Cancels the subscription, once, and lets go of the closures; later calls do nothing.
        /// A cancel before the subscription only marks the sink, which then cancels the
        /// subscription when it arrives.
        @inlinable
        public func cancel() {
            // Completed or cancelled already (the usual cancel of a finished stream's
            // `AnyCancellable`): both stop the hand-off and end the status and the handlers in the
            // same call, so there is nothing left to end and the lock is not taken for nothing.
            guard !handOff.hasStopped() else { return }
            let (previous, handlers) = lock.withLock { _ in (UpstreamStatus.end(&status), termination.end()) }
            if let subscription = (consume previous).takeSubscription() {
                if handOff.stopFromOutside() {
                    releaseClosures()
                }
                subscription.cancel()
            }
            for handler in handlers { handler() }
        }

        /// Lets go of both closures; run by whichever side the hand-off names.
        @inlinable
        internal func releaseClosures() {
            onValue = nil
            onCompletion = nil
        }

        /// `"Sink"`.
        public var description: String { "Sink" }

        /// A mirror with no children.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior.
    ///
    /// The subscriber requests `.unlimited` on subscription. Values and the completion are
    /// delivered on whatever thread the publisher sends them. In debug builds the subscription
    /// ledger records the chain of publishers the sink is attached to, so that a leak report
    /// names it.
    /// - Parameters:
    ///   - receiveCompletion: The closure to execute on completion.
    ///   - receiveValue: The closure to execute on receipt of a value.
    /// - Returns: A cancellable instance, which you use when you end assignment of the received
    ///   value. Deallocation of the result will tear down the subscription stream.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        // A subject's sink, and an `ObservableObjectPublisher`'s, is made as one object with its
        // subscription (`SubjectSink`), and so is an erased subject's.
        if let cancellable = sinkIfSubject(receiveCompletion, receiveValue, origin: self) {
            return cancellable
        }
        if let erased = self as? AnyPublisher<Output, Failure>,
            let cancellable = erased.box.sinkIfSubject(erased.box, receiveCompletion, receiveValue)
        {
            return cancellable
        }
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        #if DEBUG
        Ledger.noteOrigin(sink, publisher: self)
        #endif
        subscribe(sink)
        return AnyCancellable(object: sink)
    }
}

extension Publisher {
    /// `sink` as one ``SubjectSink`` when this publisher is a `PassthroughSubject`, a
    /// `CurrentValueSubject` or an `ObservableObjectPublisher` and no `_Introspection` is watching
    /// `subscribe(_:)`; `nil` otherwise.
    /// `origin` is the publisher `sink` was called on, which the ledger names. The casts are to
    /// final classes, so where this is specialised they are settled at compile time, and a
    /// publisher of any other type does not look at the introspection registry.
    @inlinable
    internal func sinkIfSubject<Origin: Publisher>(
        _ receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        _ receiveValue: @escaping (Output) -> Void,
        origin: Origin
    ) -> AnyCancellable? where Origin.Output == Output, Origin.Failure == Failure {
        if let subject = self as? PassthroughSubject<Output, Failure>, !IntrospectionRegistry.isActive {
            return origin.sinkOnSubject(subject, receiveCompletion, receiveValue) { subject.attachSink($0) }
        }
        if let subject = self as? CurrentValueSubject<Output, Failure>, !IntrospectionRegistry.isActive {
            return origin.sinkOnSubject(subject, receiveCompletion, receiveValue) { subject.attachSink($0) }
        }
        if let publisher = self as? ObservableObjectPublisher, !IntrospectionRegistry.isActive {
            return origin.sinkOnSubject(publisher.hub, receiveCompletion, receiveValue) {
                publisher.attachSink($0)
            }
        }
        return nil
    }

    /// Makes a ``SubjectSink`` on `parent` and attaches it with `attach`: `sink` on a subject.
    @inlinable
    internal func sinkOnSubject(
        _ parent: any SubjectConduitParent,
        _ receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        _ receiveValue: @escaping (Output) -> Void,
        attach: (SubjectSink<Output, Failure>) -> Void
    ) -> AnyCancellable {
        let sink = SubjectSink(parent: parent, receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        #if DEBUG
        Ledger.noteOrigin(sink, publisher: self)
        #endif
        attach(sink)
        return AnyCancellable(object: sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
    ///
    /// - Parameter receiveValue: The closure to execute on receipt of a value.
    /// - Returns: A cancellable instance, which you use when you end assignment of the received
    ///   value. Deallocation of the result will tear down the subscription stream.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        // `$property.sink { … }`: a published property's subject makes the sink as one object too
        // (a subject's own `sink` is decided in the general `sink`).
        if let published = self as? Published<Output>.Publisher, !IntrospectionRegistry.isActive {
            return sinkOnSubject(
                published.subject, { _ in }, receiveValue, attach: { published.subject.attachSink($0) })
        }
        return sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers.Sink: ChainEnd {}

extension Subscribers.Sink: TerminationReporting {
    package func observeTermination(_ handler: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock { _ in termination.observe(handler) }
    }
}
