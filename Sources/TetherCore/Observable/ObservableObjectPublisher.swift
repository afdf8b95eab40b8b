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
    /// nothing.
    @inlinable
    public func send() {
        for conduit in conduits.withLock({ $0 }) {
            conduit.signal()
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
    /// Calls into the subscriber are serialised by a ``DownstreamTurn``. A signal is a `Void`, so
    /// what a reentrant `send()` leaves for the delivering thread is a counter. The class is not
    /// generic (the subscriber is type-erased once, on subscription) so that the
    /// per-signal path, reached through the publisher's list, runs as specialised code instead
    /// of instantiating generic metadata on every call.
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
            /// Set by the first request: from then on every signal is delivered.
            @usableFromInline var active = false
            /// Signals sent from inside a delivery, on the delivering thread.
            @usableFromInline var owed = 0

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

        @inlinable
        internal init(downstream: Downstream, parent: ObservableObjectPublisher) {
            state = Locked(State(downstream: downstream, parent: parent))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        /// Hands the subscription over, then delivers the signals sent meanwhile.
        @inlinable
        internal func start(_ downstream: Downstream) {
            _ = turn.run {
                downstream.receive(subscription: self)
                drain()
            }
        }

        @inlinable
        internal func signal() {
            let ranInTurn = turn.run {
                guard let target = state.withLock({ $0.active ? $0.downstream : nil }) else { return }
                _ = target.receive()
                drain()
            }
            if !ranInTurn {
                state.withLock { state in
                    if state.downstream != nil, state.active { state.owed += 1 }
                }
            }
        }

        /// Delivers the signals sent from inside deliveries until none is left. Runs only in
        /// this thread's turn.
        @inlinable
        internal func drain() {
            while let target = state.withLock({ state -> Downstream? in
                guard let downstream = state.downstream, state.owed > 0 else { return nil }
                state.owed -= 1
                return downstream
            }) {
                _ = target.receive()
            }
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: ObservableObjectPublisher was asked for .none")
            state.withLock { state in
                if state.downstream != nil { state.active = true }
            }
        }

        @inlinable
        internal func cancel() {
            let released = state.withLock { state -> (Downstream?, ObservableObjectPublisher?) in
                defer {
                    state.downstream = nil
                    state.owed = 0
                }
                return (state.downstream, state.parent)
            }
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
