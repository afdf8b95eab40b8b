import TetherCore

/// One subscriber's subscription to a ``ReplaySubject``.
///
/// Like ``SubjectConduit``, delivery is serialised by a drain loop rather than by a lock held
/// across calls. Unlike it, a value offered without demand is not dropped: it joins a backlog of
/// at most `capacity` values (the oldest giving way), which starts as the subject's buffer and is
/// delivered as demand arrives. A completion waits behind the backlog.
@usableFromInline
internal final class ReplayConduit<Downstream: Subscriber>: SubjectConduitProtocol, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    internal typealias State = ReplayConduitState<Downstream>

    @usableFromInline
    internal let machine: Locked<State>

    @inlinable
    internal init(
        downstream: Downstream, parent: (any SubjectConduitParent)?, capacity: Int, backlog: [Output],
        completion: Subscribers.Completion<Failure>?
    ) {
        machine = Locked(
            State(downstream: downstream, parent: parent, capacity: capacity, backlog: backlog, completion: completion))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Hands the subscription to the subscriber, then delivers whatever it asked for meanwhile.
    @inlinable
    internal func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
        perform(machine.withLock { $0.delivered(.none) })
    }

    @inlinable
    internal func offer(_ value: Output) {
        if let downstream = machine.withLock({ $0.offer(value) }) {
            let more = downstream.receive(value)
            perform(machine.withLock { $0.delivered(more) })
        }
    }

    @inlinable
    internal func finish(_ completion: Subscribers.Completion<Failure>) {
        if let released = machine.withLock({ $0.finish(completion) }) {
            released.downstream?.receive(completion: completion)
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: ReplaySubject was asked for .none")
        perform(machine.withLock { $0.request(demand) })
    }

    @inlinable
    internal func cancel() {
        let released = machine.withLock { $0.terminate() }
        released.parent?.detach(self)
    }

    /// Runs the drain loop's actions until the machine goes idle.
    @inlinable
    internal func perform(_ action: State.Action) {
        var action = action
        while true {
            switch action {
            case .idle:
                return
            case .deliver(let value, let downstream):
                let more = downstream.receive(value)
                action = machine.withLock { $0.delivered(more) }
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
    init<Downstream: Subscriber>(replay conduit: ReplayConduit<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.init(conduit: conduit, offer: { unsafeDowncast($0, to: ReplayConduit<Downstream>.self).offer($1) })
    }
}

/// The replay conduit's state machine; every method runs under the conduit's lock and calls
/// nothing.
///
/// Invariant: `backlog` is only ever non-empty while `demand` is zero, so everything in `queue`
/// is older than it.
@usableFromInline
internal struct ReplayConduitState<Downstream: Subscriber> {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    internal enum Action {
        case idle
        case deliver(Output, Downstream)
        /// Completes the subscriber; everything else the conduit held is released with it.
        case complete(Subscribers.Completion<Failure>, Released)
    }

    /// Everything released together at the end, outside the lock.
    @usableFromInline
    internal struct Released {
        @usableFromInline var downstream: Downstream?
        @usableFromInline var parent: (any SubjectConduitParent)?
        @usableFromInline var queue: [Output]
        @usableFromInline var backlog: [Output]

        @inlinable
        init(downstream: Downstream?, parent: (any SubjectConduitParent)?, queue: [Output], backlog: [Output]) {
            self.downstream = downstream
            self.parent = parent
            self.queue = queue
            self.backlog = backlog
        }
    }

    /// `nil` once completed or cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var parent: (any SubjectConduitParent)?
    @usableFromInline var demand = Subscribers.Demand.none
    /// A call into the subscriber is under way (initially: handing over the subscription).
    @usableFromInline var delivering = true
    /// Values accepted with demand while `delivering`; their demand is already taken.
    @usableFromInline var queue: [Output] = []
    /// Values owed without demand, oldest first: at most `capacity`.
    @usableFromInline var backlog: [Output]
    @usableFromInline let capacity: Int
    /// The subject's completion, delivered once `queue` and `backlog` are empty.
    @usableFromInline var completion: Subscribers.Completion<Failure>?

    @inlinable
    init(
        downstream: Downstream, parent: (any SubjectConduitParent)?, capacity: Int, backlog: [Output],
        completion: Subscribers.Completion<Failure>?
    ) {
        self.downstream = downstream
        self.parent = parent
        self.capacity = capacity
        self.backlog = backlog
        self.completion = completion
    }

    /// A value from the subject: the subscriber to deliver it to now, or `nil` when it is queued
    /// or kept in the backlog.
    @inlinable
    mutating func offer(_ value: Output) -> Downstream? {
        guard let downstream, completion == nil else { return nil }
        guard demand > 0 else {
            guard capacity > 0 else { return nil }
            if backlog.count == capacity { backlog.removeFirst() }
            backlog.append(value)
            return nil
        }
        demand -= 1
        if delivering {
            queue.append(value)
            return nil
        }
        delivering = true
        return downstream
    }

    /// A completion from the subject: what to release and complete now, or `nil` when it waits
    /// for the delivery under way or for demand for the backlog (or the conduit is done).
    @inlinable
    mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Released? {
        guard downstream != nil, self.completion == nil else { return nil }
        self.completion = completion
        guard !delivering, backlog.isEmpty else { return nil }
        return terminate()
    }

    /// A call into the subscriber returned `more` demand: what to deliver next.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Action {
        guard let downstream else {
            delivering = false
            return .idle
        }
        demand += more
        takeOwed()
        if !queue.isEmpty {
            // A drained queue keeps its buffer: steady bursts then cost no allocation.
            return .deliver(queue.removeFirst(), downstream)
        }
        if let completion, backlog.isEmpty {
            return .complete(completion, terminate())
        }
        delivering = false
        return .idle
    }

    /// The subscriber asked for more: what to deliver now.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Action {
        guard downstream != nil else { return .idle }
        demand += more
        takeOwed()
        guard !delivering else { return .idle }
        delivering = true
        return delivered(.none)
    }

    /// Moves as much of the backlog as there is demand for into the queue, so that values
    /// offered later never overtake it.
    @inlinable
    mutating func takeOwed() {
        while demand > 0, !backlog.isEmpty {
            demand -= 1
            queue.append(backlog.removeFirst())
        }
    }

    @inlinable
    mutating func terminate() -> Released {
        defer {
            downstream = nil
            parent = nil
            queue = []
            backlog = []
        }
        return Released(downstream: downstream, parent: parent, queue: queue, backlog: backlog)
    }
}
