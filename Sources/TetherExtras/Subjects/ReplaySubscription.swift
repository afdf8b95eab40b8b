import TetherCore

/// One subscriber's subscription to a ``ReplaySubject``.
///
/// Like ``SubjectSubscription``, calls into the subscriber are serialised by a ``DownstreamTurn``: a
/// thread that sends while another is delivering waits for its turn and then delivers its own
/// value, and a value or completion sent from inside the subscriber's `receive` on the
/// delivering thread is delivered at once, nested in the call under way (after any values owed
/// before it). Unlike it, a value offered without demand is not dropped: it joins a backlog of
/// at most `capacity` values (the oldest giving way), which starts as the subject's buffer and
/// is delivered as demand arrives, by the thread that requests it or by the delivering thread
/// the demand is returned to. Such a value does not wait for another thread's turn. A completion
/// waits behind the backlog.
@usableFromInline
internal final class ReplaySubscription<Downstream: Subscriber>: SubjectConduitProtocol, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    internal typealias State = ReplaySubscriptionState<Downstream>

    @usableFromInline
    internal let machine: Locked<State>

    /// Whose turn it is to call into the subscriber.
    @usableFromInline
    internal let turn = DownstreamTurn()

    @inlinable
    internal init(
        downstream: Downstream, parent: (any SubjectConduitParent)?, capacity: Int, backlog: RingBuffer<Output>,
        completion: Subscribers.Completion<Failure>?
    ) {
        machine = Locked(
            State(downstream: downstream, parent: parent, capacity: capacity, backlog: backlog, completion: completion))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription to the subscriber, then delivers whatever it asked for meanwhile,
    /// and the completion once it is due (none goes out before the hand-over).
    @inlinable
    internal func start(_ downstream: Downstream) {
        _ = turn.run {
            machine.withLock { $0.handedOver = true }
            downstream.receive(subscription: self)
            drain()
        }
    }

    /// Offers a value: delivered in this thread's turn, or nested in a delivery under way on this
    /// thread. When a thread holds the turn and there is no demand, the value joins the backlog at
    /// once rather than waiting for the busy subscriber, as a subject's send that finds no demand
    /// returns at once; the thread that returns or requests demand for it delivers it.
    @inlinable
    internal func offer(_ value: Output) {
        if turn.ifFree({ deliver(value) }) { return }
        guard machine.withLock({ $0.waitsForTurn(value) }) else { return }
        turn.nesting { deliver(value) }
    }

    /// Delivers a value offered in this thread's turn, with whatever is due before it.
    @inlinable
    internal func deliver(_ value: Output) {
        switch machine.withLock({ $0.take(value) }) {
        case .idle:
            return
        case .deliver(let downstream):
            let more = downstream.receive(value)
            if machine.withLock({ $0.settle(more) }) { return }
            drain()
        case .drain:
            drain()
        }
    }

    @inlinable
    internal func finish(_ completion: Subscribers.Completion<Failure>) {
        turn.nesting { () -> Void in
            machine.withLock { $0.finish(completion) }
            drain()
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: ReplaySubject was asked for .none")
        // Asked from inside a delivery on this thread, the delivering frame's drain picks up
        // what the demand made due.
        if machine.withLock({ $0.request(demand) }) {
            _ = turn.run { drain() }
        }
    }

    @inlinable
    internal func cancel() {
        let released = machine.withLock { $0.terminate() }
        released.parent?.detach(self)
    }

    /// Delivers what is due, owed or completed, until nothing is: in this thread's turn, or
    /// nested in a delivery of it.
    @inlinable
    internal func drain() {
        while true {
            switch machine.withLock({ $0.next() }) {
            case .idle:
                return
            case .deliver(let value, let downstream):
                let more = downstream.receive(value)
                machine.withLock { $0.add(more) }
            case .complete(let completion, let released):
                released.parent?.detach(self)
                released.downstream?.receive(completion: completion)
                return
            }
        }
    }

    @usableFromInline
    internal var description: String { "ReplaySubject" }

    @usableFromInline
    internal var customMirror: Mirror {
        let (demand, backlog) = machine.withLock { ($0.demand, $0.backlog.count) }
        return Mirror(self, children: ["downstreamDemand": demand, "backlog": backlog])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

extension SubjectEntry {
    /// The entry of a replay conduit: its value entry point, specialised where the subscriber's
    /// type is known.
    @inlinable
    init<Downstream: Subscriber>(replay conduit: ReplaySubscription<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.init(
            conduit: conduit,
            offer: { unsafeDowncast($0 as AnyObject, to: ReplaySubscription<Downstream>.self).offer($1) })
    }
}
