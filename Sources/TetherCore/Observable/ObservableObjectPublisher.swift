/// A publisher that publishes changes from observable objects.
///
/// It is the default ``ObservableObject/ObjectWillChangePublisher``: every `@Published` property
/// of an ``ObservableObject`` calls ``send()`` on it just before the property changes.
///
/// As in Combine, the publisher signals "about to change" rather than producing values to be
/// counted: once a subscriber has requested any demand at all, it receives every ``send()``.
/// A subscriber that has requested nothing receives nothing. `send()` may be called from any
/// thread; each subscriber still receives its signals one at a time (a `send()` from another
/// thread waits for the call under way, then delivers its own signal), and a `send()` made from
/// inside a subscriber's `receive` reaches that subscriber after the current call returns and
/// before the outer `send()` does.
/// Subscriptions hold the publisher weakly, so subscribing keeps no object alive.
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
    /// The kind of values published by this publisher: `Void`, a bare "will change" signal.
    public typealias Output = Void

    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    @usableFromInline
    internal let conduits = Locked(ContiguousArray<Inner>())

    /// Creates an observable object publisher instance.
    public init() {}

    /// Attaches `subscriber`; it receives every ``send()`` made after its first request.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        let downstream = AnySubscriber(subscriber)
        let conduit = Inner(downstream: downstream, parent: self)
        conduits.withLock { $0.append(conduit) }
        conduit.start(downstream)
    }

    /// Sends the changed value to the downstream subscribers.
    ///
    /// Copying the subscriber list is a reference-count bump of its buffer, so sending allocates
    /// nothing; each subscription is called where it is in that copy, which keeps it alive, so
    /// the loop retains none of them.
    @inlinable
    public func send() {
        let list = conduits.withLock { $0 }
        for index in list.indices {
            list[index].signal()
        }
    }

    @usableFromInline
    internal func detach(_ conduit: Inner) {
        let removed = conduits.withLock { conduits -> Inner? in
            guard let index = conduits.firstIndex(where: { $0 === conduit }) else { return nil }
            return conduits.remove(at: index)
        }
        _ = removed
    }
}

extension ObservableObjectPublisher {
    /// One subscriber's subscription.
    ///
    /// Calls into the subscriber are serialised by a ``DownstreamTurn``, and a signal takes the
    /// subjects' lane (``SubjectLane``): once the subscriber has asked for anything, a signal goes,
    /// in the sender's turn, to the subscriber kept in `serial` without taking the state's lock,
    /// and a cancel leaves that reference for the turn to let go of. A signal is a `Void`, so what
    /// a reentrant `send()` leaves for the delivering thread is a count, which only the turn's
    /// holder touches. The class is not generic (the subscriber is type-erased once, on
    /// subscription) so that the per-signal path, reached through the publisher's list, runs as
    /// specialised code instead of instantiating generic metadata on every call.
    @usableFromInline
    internal final class Inner: Subscription, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        @usableFromInline typealias Downstream = AnySubscriber<Void, Never>

        @usableFromInline
        internal struct State {
            /// `nil` once cancelled.
            @usableFromInline var downstream: Downstream?
            @usableFromInline weak var parent: ObservableObjectPublisher?

            @inlinable
            init(downstream: Downstream, parent: ObservableObjectPublisher) {
                self.downstream = downstream
                self.parent = parent
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

        /// The subscriber the turn calls; only touched in the turn, and let go of there (see
        /// ``SubjectLane``).
        @usableFromInline @exclusivity(unchecked)
        internal var serial: Downstream?

        /// Signals sent from inside a delivery, on the delivering thread; only touched in the turn.
        @usableFromInline @exclusivity(unchecked)
        internal var owed = 0

        @inlinable
        internal init(downstream: Downstream, parent: ObservableObjectPublisher) {
            state = Locked(State(downstream: downstream, parent: parent))
            serial = downstream
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        /// Runs `body` in this thread's turn, then delivers the signals left meanwhile and lets go
        /// of the subscriber if a cancel left it owed.
        /// - Returns: `false`, without running `body`, when this thread holds the turn already.
        @inlinable
        internal func inTurn(_ body: () -> Void) -> Bool {
            lane.run(
                {
                    body()
                    while owed > 0, lane.isOpen {
                        owed -= 1
                        _ = serial?.receive()
                    }
                    owed = 0
                }, in: turn, release: { serial = nil })
        }

        /// Hands the subscription over, then delivers the signals sent meanwhile.
        @inlinable
        internal func start(_ downstream: Downstream) {
            _ = inTurn { downstream.receive(subscription: self) }
        }

        @inlinable
        internal func signal() {
            let ran = inTurn {
                if lane.isOpen {
                    _ = serial?.receive()
                }
            }
            if !ran, lane.isOpen {
                owed += 1
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
            let released = state.withLock { state -> (Downstream?, ObservableObjectPublisher?) in
                defer { state.downstream = nil }
                return (state.downstream, state.parent)
            }
            guard released.0 != nil else { return }
            lane.stop()
            // Otherwise a delivery is in progress, on this thread or another, and lets go at its end.
            _ = turn.ifFree { lane.releaseIfOwed { serial = nil } }
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
