/// A publisher that publishes changes from observable objects.
///
/// It is the default ``ObservableObject/ObjectWillChangePublisher``: every `@Published` property
/// of an ``ObservableObject`` calls ``send()`` on it just before the property changes.
///
/// As in Combine, the publisher signals "about to change" rather than producing values to be
/// counted: once a subscriber has requested any demand at all, it receives every ``send()``.
/// A subscriber that has requested nothing receives nothing. `send()` may be called from any
/// thread; each subscriber still receives its signals one at a time from different threads (a
/// `send()` from another thread waits for the call under way, then delivers its own signal),
/// and a `send()` made from inside a subscriber's `receive`, on its thread, reaches that
/// subscriber at once, nested in the current call, as in Combine.
/// Subscribing keeps no object alive: subscriptions do not hold the publisher.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    /// The kind of values published by this publisher: `Void`, a bare "will change" signal.
    public typealias Output = Void

    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    /// The subscriptions, which hold this rather than the publisher (see ``Hub``).
    @usableFromInline
    internal let hub = Hub()

    /// The object whose default `objectWillChange` this is, when the registry made it: unowned,
    /// which keeps that object's memory, not the object, while the registry keeps the publisher,
    /// so that no other object takes its identifier meanwhile (see ``ObservableObjectRegistry``).
    internal unowned let pin: AnyObject?

    /// The same object, weakly: `nil` once it has begun to go, which tells the registry to let
    /// go of the publisher. A constant, so that reading it is not an access the run time checks
    /// for exclusivity (which a build for testing makes it).
    internal weak let registeredObject: AnyObject?

    /// Creates an observable object publisher instance.
    public init() {
        pin = nil
        registeredObject = nil
    }

    /// Creates the default `objectWillChange` of `object`, for the registry.
    internal init(registeredFor object: AnyObject) {
        pin = object
        registeredObject = object
    }

    deinit {
        // As when the subscriptions were the publisher's own: they go with it, unless someone
        // else holds them, and a cancel after this detaches from an empty hub.
        let released = hub.receivers.withLock { receivers in
            defer { receivers = SubjectReceivers() }
            return receivers
        }
        _ = released
    }

    /// Attaches `subscriber`; it receives every ``send()`` made after its first request.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Void, S.Failure == Never {
        let downstream = AnySubscriber(subscriber)
        let conduit = Inner(downstream: downstream, hub: hub)
        hub.receivers.withLock { $0.append(conduit.entry) }
        conduit.start(downstream)
    }

    /// Sends the changed value to the downstream subscribers.
    ///
    /// The subscriptions are copied out of the lock as the subjects copy theirs (a lone one held
    /// inline, more in an array whose copy is a reference-count bump), so sending allocates
    /// nothing, and each is called where it is in that copy, which keeps it alive.
    @inlinable
    public func send() {
        hub.receivers.withLock { SubjectReceivers(copying: $0) }.offer(())
    }

    /// Attaches a sink made by `sink` as one object (see ``SubjectSink``): its demand is
    /// `.unlimited` from the start, so it receives every ``send()`` from now on.
    ///
    /// Generic because `sink` is: it is only called where the publisher is this class, whose
    /// output is `Void` and which never fails, so the sink is a `SubjectSink<Void, Never>`.
    @inlinable
    internal func attachSink<Value, Failure>(_ sink: SubjectSink<Value, Failure>) {
        let sink = unsafeDowncast(sink as AnyObject, to: SubjectSink<Void, Never>.self)
        hub.receivers.withLock { $0.append(sink.entry) }
    }
}

extension ObservableObjectPublisher {
    /// What an ``ObservableObjectPublisher``'s subscriptions hold, instead of the publisher: its
    /// list of subscriptions, under a lock.
    ///
    /// A subscription needs its publisher only to detach from it on cancel, and must not keep it
    /// alive (Combine's subscriptions hold it weakly). Holding the list instead, strongly, does
    /// both without a weak reference, which would give the publisher the run time's side table:
    /// an allocation, and every later retain and release of the publisher on the run time's slow
    /// path (9% of the instructions of making, watching and releasing an ``ObservableObject``
    /// whose view sinks `objectWillChange`). The publisher empties the list as it goes, so a
    /// subscription that outlives it detaches from an empty list. A `sink`'s ``SubjectSink``
    /// holds the hub as its parent, as a subject's sink holds its subject.
    @usableFromInline
    internal final class Hub: SubjectConduitParent, @unchecked Sendable {
        @usableFromInline
        internal let receivers = Locked(SubjectReceivers<Void, Never>())

        @usableFromInline
        internal init() {}

        @usableFromInline
        internal func detach(_ conduit: AnyObject) {
            let removed = receivers.withLock { $0.remove(conduit) }
            _ = removed
        }

        /// The publisher has no upstream to ask.
        @usableFromInline
        internal func acknowledgeDownstreamDemand() {}
    }
}

extension ObservableObjectPublisher {
    /// One subscriber's subscription.
    ///
    /// Calls into the subscriber are serialised by a ``DownstreamTurn``, and a signal takes the
    /// subjects' lane (``SubjectLane``): once the subscriber has asked for anything, a signal goes,
    /// in the sender's turn, to the subscriber kept in `serial` without taking the state's lock,
    /// and a cancel leaves that reference for the turn to let go of. A `send()` from inside a
    /// delivery, on the delivering thread, is delivered nested in it. The class is not generic
    /// (the subscriber is type-erased once, on subscription) so that the per-signal path, reached
    /// through the publisher's list, runs as specialised code instead of instantiating generic
    /// metadata on every call.
    @usableFromInline
    internal final class Inner: Subscription, SubjectConduitProtocol, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        @usableFromInline typealias Downstream = AnySubscriber<Void, Never>
        @usableFromInline typealias Output = Void
        @usableFromInline typealias Failure = Never

        @usableFromInline
        internal struct State {
            /// `nil` once cancelled.
            @usableFromInline var downstream: Downstream?
            /// What to detach from; `nil` once cancelled.
            @usableFromInline var hub: Hub?

            @inlinable
            init(downstream: Downstream, hub: Hub) {
                self.downstream = downstream
                self.hub = hub
            }
        }

        @usableFromInline
        internal let state: Locked<State>

        /// Whose turn it is to call into the subscriber.
        @usableFromInline
        internal let turn = DownstreamTurn()

        /// Open from the first request until the cancel: signals go to `serial`.
        @usableFromInline
        internal let lane = SubjectLane()

        /// The subscriber the turn calls: its box, retained here once and called unretained
        /// (a `var` of the subscriber itself would be retained and released around each call; see
        /// ``SubjectSubscription/erasedSerial``). Only touched in the turn, and let go of there
        /// (see ``SubjectLane``).
        @usableFromInline @exclusivity(unchecked)
        internal var serial: Unmanaged<ErasedSubscriber<Void, Never>>?

        @inlinable
        internal init(downstream: Downstream, hub: Hub) {
            state = Locked(State(downstream: downstream, hub: hub))
            serial = ErasedSubscriber.retainedBox(of: downstream)
            Ledger.enter(self)
        }

        deinit {
            serial?.release()
            Ledger.leave(self)
        }

        /// The publisher's handle on this subscription.
        @inlinable
        internal var entry: SubjectEntry<Void, Never> {
            SubjectEntry(conduit: self) { conduit, _ in unsafeDowncast(conduit as AnyObject, to: Inner.self).signal() }
        }

        /// Never called: the publisher never completes.
        @usableFromInline
        internal func finish(_ completion: Subscribers.Completion<Never>) {}

        /// Runs `body` in this thread's turn, then lets go of the subscriber if a cancel left it
        /// owed.
        /// - Returns: `false`, without running `body`, when this thread holds the turn already.
        @inlinable
        internal func inTurn(_ body: () -> Void) -> Bool {
            lane.run(body, in: turn, release: { serial.releaseKept() })
        }

        /// Calls the subscriber kept for the turn, unless the lane is closed: in this thread's
        /// turn, or nested in a delivery of it (the subscriber is let go of only at the end of the
        /// outermost turn).
        @inlinable
        internal func signalSerial() {
            if lane.isOpen {
                _ = serial?.receive(())
            }
        }

        /// Hands the subscription over; a `send()` from inside `receive(subscription:)` reaches
        /// the subscriber nested, once it has asked for anything.
        @inlinable
        internal func start(_ downstream: Downstream) {
            _ = inTurn { downstream.receive(subscription: self) }
        }

        @inlinable
        internal func signal() {
            if !inTurn({ signalSerial() }) {
                // From inside a delivery on this thread: nested, as in Combine.
                signalSerial()
            }
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: ObservableObjectPublisher was asked for .none")
            // A cancel meanwhile stops the lane for good, whether it comes before this or after.
            if state.withLock({ $0.downstream != nil }) {
                lane.open()
            }
        }

        @inlinable
        internal func cancel() {
            let released = state.withLock { state -> (Downstream?, Hub?) in
                defer {
                    state.downstream = nil
                    state.hub = nil
                }
                return (state.downstream, state.hub)
            }
            guard released.0 != nil else { return }
            lane.stop()
            // Otherwise a delivery is in progress, on this thread or another, and lets go at its end.
            _ = turn.ifFree { lane.releaseIfOwed { serial.releaseKept() } }
            released.1?.detach(self)
        }

        @usableFromInline
        internal var description: String { "ObservableObjectPublisher" }

        @usableFromInline
        internal var customMirror: Mirror {
            let downstream = state.withLock { $0.downstream }
            return Mirror(self, children: ["downstream": downstream as Any])
        }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}
