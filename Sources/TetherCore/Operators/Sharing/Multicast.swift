extension Publisher {
    /// Applies a closure to create a subject that delivers elements to subscribers.
    ///
    /// Use a multicast publisher when you have multiple downstream subscribers, but you want
    /// upstream publishers to only process one `receive(_:)` call per event. The closure runs
    /// once, when the first subscriber attaches or on the first ``ConnectablePublisher/connect()``,
    /// whichever comes first; every subscriber then shares that subject. Nothing is requested
    /// from the upstream until you call `connect()`.
    /// - Parameter createSubject: A closure to create the ``Subject`` that delivers elements to
    ///   the subscribers.
    /// - Returns: A connectable publisher that multicasts through the created subject; its
    ///   failure type is the upstream's.
    @inlinable
    public consuming func multicast<S: Subject>(_ createSubject: @escaping () -> S) -> Publishers.Multicast<Self, S>
    where S.Failure == Failure, S.Output == Output {
        Publishers.Multicast(upstream: self, createSubject: createSubject)
    }

    /// Provides a subject to deliver elements to multiple subscribers.
    ///
    /// In contrast with ``multicast(_:)``, this method shares the given subject among all the
    /// downstream subscribers. Nothing is requested from the upstream until you call
    /// ``ConnectablePublisher/connect()``.
    /// - Parameter subject: A subject to deliver elements to downstream subscribers.
    /// - Returns: A connectable publisher that multicasts through `subject`.
    @inlinable
    public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
    where S.Failure == Failure, S.Output == Output {
        multicast { subject }
    }
}

extension Publishers {
    /// A publisher that uses a subject to deliver elements to multiple subscribers.
    ///
    /// Subscribers attach to the subject, which honours each one's own demand (a
    /// `PassthroughSubject` drops a value for a subscriber without demand). ``connect()``
    /// subscribes the subject to the upstream; the subject asks the upstream for `.unlimited`
    /// once any subscriber has demand. Values reach subscribers on the thread that delivers
    /// them upstream. Cancelling the cancellable returned by `connect()` cancels the upstream;
    /// the subscribers stay attached to the subject.
    public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher
    where Upstream.Failure == SubjectType.Failure, Upstream.Output == SubjectType.Output {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that creates the subject the first time it is needed.
        public let createSubject: () -> SubjectType

        @usableFromInline
        internal let made = Locked<SubjectType?>(nil)

        /// Creates a multicast publisher that applies a closure to create a subject that
        /// delivers elements to subscribers.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - createSubject: A closure that creates the subject, once.
        public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
            self.upstream = upstream
            self.createSubject = createSubject
        }

        /// The subject, created on first use. The closure is user code, so it runs outside the
        /// lock; should two threads race to create it, the first to finish wins and the other
        /// subject is dropped unused.
        @usableFromInline
        internal var subject: SubjectType {
            if let existing = made.withLock({ $0 }) { return existing }
            let fresh = createSubject()
            return made.withLock { made in
                if let winner = made { return winner }
                made = fresh
                return fresh
            }
        }

        /// Attaches `subscriber` to the shared subject.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            subject.receive(subscriber: Inner(downstream: subscriber))
        }

        /// Subscribes the subject to the upstream publisher.
        ///
        /// Inlinable, as every call that subscribes an upstream is, so that the values it
        /// delivers run through code specialised where the types are known.
        /// - Returns: A cancellable that cancels the upstream subscription; deallocating it
        ///   cancels too, so keep it for as long as the connection should last.
        @inlinable
        public func connect() -> any Cancellable {
            upstream.subscribe(subject)
        }
    }
}

extension Publishers.Multicast {
    /// One subscriber's subscription, standing between it and the subject's subscription.
    ///
    /// On the subscription kernel (``UpstreamLink``): who ends the stream is decided by its
    /// status, while the downstream is handed over through its `handOff`, so a value takes no
    /// lock.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output

        @usableFromInline
        internal let link = UpstreamLink()

        /// Read and written only on the serial path, or by the side the hand-off names.
        @usableFromInline
        @exclusivity(unchecked)
        internal var downstream: Downstream?

        @inlinable
        internal init(downstream: Downstream) {
            self.downstream = downstream
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func receive(subscription: any Subscription) {
            guard link.accept(subscription) else {
                subscription.cancel()
                return
            }
            downstream?.receive(subscription: self)
            if link.handOff.leave() {
                downstream = nil
            }
        }

        @inlinable
        internal func receive(_ input: Output) -> Subscribers.Demand {
            guard link.handOff.enter("Multicast") else { return .none }
            // Borrowed: the hand-off leaves a cancel's release to the end of this delivery.
            let demand = InPlace.receive(input, by: &downstream)
            if link.handOff.leave() {
                self.downstream = nil
                return .none
            }
            // As in Combine, more demand goes to the subject's subscription as a request
            // rather than back as the return value.
            if demand > 0 {
                link.upstream?.request(demand)
            }
            return .none
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>) {
            guard case .subscribed = link.end(evenBeforeSubscription: true) else { return }
            let released = downstream
            // From inside a value's delivery (a subject that completes reentrantly), the
            // subscriber is still being called where it is kept: that delivery lets go of it.
            if link.handOff.stopBeneathDeliveries(entered: false) {
                downstream = nil
            }
            released?.receive(completion: completion)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            // Combine does not trap here: a subscriber asking for nothing gets nothing.
            guard demand > 0 else { return }
            link.upstream?.request(demand)
        }

        @inlinable
        internal func cancel() {
            guard let upstream = link.cancel(evenBeforeSubscription: true, release: { downstream = nil }) else {
                return
            }
            upstream.cancel()
        }

        @usableFromInline
        internal var description: String { "Multicast" }

        @usableFromInline
        internal var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

extension Publishers.Multicast: LedgerChainLink {
    @usableFromInline var ledgerUpstream: Any { upstream }
}
