import TetherCore

/// The replay conduit's state machine; every method runs under the conduit's lock and calls
/// nothing.
///
/// Invariants: `left` is non-empty only while some thread holds the conduit's turn (it is what
/// that thread has yet to deliver, and it drains it before giving the turn up, or delivers it
/// nested in a delivery under way); every value in `left` is older than every value in
/// `backlog`, because the backlog is moved into `left` as far as there is demand before a newer
/// value joins either.
@usableFromInline
internal struct ReplaySubscriptionState<Downstream: Subscriber> {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    /// What to do with a value offered in the sender's turn.
    @usableFromInline
    internal enum Take {
        /// Nothing: the value was kept in the backlog or dropped.
        case idle
        /// Deliver the value to this subscriber.
        case deliver(Downstream)
        /// Deliver what is due, oldest first; the value is among it or kept.
        case drain
    }

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
        @usableFromInline var left: RingBuffer<Output>
        @usableFromInline var backlog: RingBuffer<Output>

        @inlinable
        init(
            downstream: Downstream?, parent: (any SubjectConduitParent)?, left: RingBuffer<Output>,
            backlog: RingBuffer<Output>
        ) {
            self.downstream = downstream
            self.parent = parent
            self.left = left
            self.backlog = backlog
        }
    }

    /// `nil` once completed or cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var parent: (any SubjectConduitParent)?
    @usableFromInline var demand = Subscribers.Demand.none
    /// Values the turn's holder has yet to deliver; their demand is taken.
    @usableFromInline var left = RingBuffer<Output>()
    /// Values owed without demand, oldest first: at most `capacity`.
    @usableFromInline var backlog: RingBuffer<Output>
    @usableFromInline let capacity: Int
    /// The subject's completion, delivered once `left` and `backlog` are empty.
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The subscription has been handed to the subscriber (``ReplaySubscription/start(_:)`` has
    /// begun): only then may the completion go out. The subject attaches a conduit under its lock
    /// and hands the subscription over after releasing it, so a completion sent from another
    /// thread can reach the conduit in between; the drain after the hand-over delivers it.
    @usableFromInline var handedOver = false

    @inlinable
    init(
        downstream: Downstream, parent: (any SubjectConduitParent)?, capacity: Int, backlog: RingBuffer<Output>,
        completion: Subscribers.Completion<Failure>?
    ) {
        self.downstream = downstream
        self.parent = parent
        self.capacity = capacity
        self.backlog = backlog
        self.completion = completion
    }

    /// A value from the subject, in the sender's turn.
    @inlinable
    mutating func take(_ value: Output) -> Take {
        guard let downstream, completion == nil else { return .idle }
        takeOwed()
        if demand > 0, left.isEmpty {
            demand -= 1
            return .deliver(downstream)
        }
        leave(value)
        return left.isEmpty ? .idle : .drain
    }

    /// A value offered while a thread holds the turn (another, or this one inside a delivery):
    /// whether it needs the turn. With no demand for it, it joins the backlog at once (or is
    /// dropped once the subscription has ended), and the turn's holder or the next request
    /// delivers it.
    @inlinable
    mutating func waitsForTurn(_ value: Output) -> Bool {
        guard downstream != nil, completion == nil else { return false }
        guard demand == 0 else { return true }
        backlog.append(value, keepingAtMost: capacity)
        return false
    }

    /// A value that must wait behind values due before it: kept for the drain when there is
    /// demand for it, in the backlog otherwise.
    @inlinable
    mutating func leave(_ value: Output) {
        guard downstream != nil, completion == nil else { return }
        takeOwed()
        if demand > 0 {
            demand -= 1
            left.append(value)
        } else {
            backlog.append(value, keepingAtMost: capacity)
        }
    }

    /// The subject's completion, in the sender's turn or nested in a delivery: kept for the
    /// drain, which delivers it after everything owed.
    @inlinable
    mutating func finish(_ completion: Subscribers.Completion<Failure>) {
        guard downstream != nil, self.completion == nil else { return }
        self.completion = completion
    }

    /// The subscriber returned `more` demand from a delivery.
    @inlinable
    mutating func add(_ more: Subscribers.Demand) {
        if downstream != nil { demand += more }
    }

    /// The subscriber returned `more` demand from a delivery: whether the turn can end now
    /// (nothing left, due or completed meanwhile). When it cannot, ``next()`` says what comes
    /// next.
    @inlinable
    mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard downstream != nil else { return true }
        demand += more
        return !isDue
    }

    /// The subscriber asked for more: whether something is now due, to be delivered in a turn.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Bool {
        guard downstream != nil else { return false }
        demand += more
        return isDue
    }

    /// Whether the turn has something to deliver: a value left, a backlog with demand for it,
    /// or a completion with nothing owed before it, once the subscription was handed over.
    @inlinable
    var isDue: Bool {
        guard downstream != nil else { return false }
        return !left.isEmpty || (demand > 0 && !backlog.isEmpty) || (completion != nil && backlog.isEmpty && handedOver)
    }

    /// What to deliver next in the turn: the oldest value left, then the backlog as far as
    /// there is demand, then the completion once nothing is owed.
    @inlinable
    mutating func next() -> Action {
        guard let downstream else { return .idle }
        if let value = left.popFirst() {
            return .deliver(value, downstream)
        }
        if demand > 0, let value = backlog.popFirst() {
            demand -= 1
            return .deliver(value, downstream)
        }
        if let completion, backlog.isEmpty, handedOver {
            return .complete(completion, terminate())
        }
        return .idle
    }

    /// Moves as much of the backlog as there is demand for into `left`, so that a newer value
    /// never overtakes it.
    @inlinable
    mutating func takeOwed() {
        while demand > 0, let value = backlog.popFirst() {
            demand -= 1
            left.append(value)
        }
    }

    @inlinable
    mutating func terminate() -> Released {
        defer {
            downstream = nil
            parent = nil
            left = RingBuffer()
            backlog = RingBuffer()
        }
        return Released(downstream: downstream, parent: parent, left: left, backlog: backlog)
    }
}
