/// The state machine that hands a time operator's events to its downstream on a scheduler, in
/// order and one at a time: every method runs under a lock, calls nothing, and returns what the
/// caller must deliver once the lock is released.
///
/// An operator queues each event with ``enqueue(_:)`` and schedules one action per event; the
/// action calls ``due()``. A scheduler may run actions concurrently (a concurrent
/// `DispatchQueue`) or in any interleaving with the upstream, so `ready` counts the events whose
/// action has run and `draining` makes exactly one action the deliverer: the others only raise
/// `ready`, and the deliverer picks their events up in queue order.
///
/// While the operator hands the downstream its subscription (``beginHandOver()`` to
/// ``endHandOver()``), an action that runs on another thread delivers nothing either: a subscriber
/// is called one signal at a time, and it is still inside `receive(subscription:)`. The events
/// wait, counted in `ready`, and the operator schedules one more action calling ``due()`` once the
/// hand-over is done. An action on the handing-over thread itself (an immediate scheduler,
/// running inside the subscriber's first request) delivers at once, as Combine's does.
@usableFromInline
internal struct DeliveryQueue<Downstream: Subscriber> {
    @usableFromInline
    internal enum Event {
        case value(Downstream.Input)
        case completion(Subscribers.Completion<Downstream.Failure>)
    }

    /// What the drain loop does next.
    @usableFromInline
    internal enum Step {
        case deliver(Event, Downstream)
        case idle
    }

    /// `nil` once a completion was handed over or the stream was cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var events = RingBuffer<Event>()
    /// Queued events whose scheduled action has run.
    @usableFromInline var ready = 0
    @usableFromInline var draining = false
    /// The thread handing the downstream its subscription (``DownstreamTurn/currentThread``), or 0.
    @usableFromInline var handingOver: UInt = 0
    /// An action found the hand-over in progress on another thread and left its event waiting.
    @usableFromInline var waitedForHandOver = false

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Queues an event for a later ``due()``.
    /// - Returns: `false` once the stream has ended: the caller must not schedule anything.
    @inlinable
    mutating func enqueue(_ event: Event) -> Bool {
        guard downstream != nil else { return false }
        events.append(event)
        return true
    }

    /// One queued event's action has run: the caller becomes the deliverer, or leaves it to the
    /// one already delivering.
    @inlinable
    mutating func due() -> Step {
        guard downstream != nil else { return .idle }
        ready += 1
        if draining { return .idle }
        if handsOverElsewhere {
            waitedForHandOver = true
            return .idle
        }
        draining = true
        return next()
    }

    /// Another thread than the calling one is handing the downstream its subscription.
    @inlinable
    var handsOverElsewhere: Bool {
        handingOver != 0 && handingOver != DownstreamTurn.currentThread
    }

    /// The calling thread is about to hand the downstream its subscription.
    @inlinable
    mutating func beginHandOver() {
        handingOver = DownstreamTurn.currentThread
    }

    /// The downstream has its subscription.
    /// - Returns: Whether events wait for it: the caller schedules one more action that calls
    ///   ``due()``, which this counts in advance (`ready` keeps counting the actions that ran).
    @inlinable
    mutating func endHandOver() -> Bool {
        handingOver = 0
        defer { waitedForHandOver = false }
        guard waitedForHandOver, ready > 0, downstream != nil else { return false }
        ready -= 1
        return true
    }

    /// The deliverer's next event, or `.idle` (which ends its turn).
    @inlinable
    mutating func next() -> Step {
        guard ready > 0, let downstream, let event = events.popFirst() else {
            draining = false
            return .idle
        }
        ready -= 1
        if case .completion = event {
            release()
        }
        return .deliver(event, downstream)
    }

    /// Ends the stream from the downstream's side: nothing more is delivered.
    /// - Returns: What was held, for the caller to release outside the lock.
    @inlinable
    mutating func cancel() -> (Downstream?, RingBuffer<Event>) {
        defer { release() }
        return (downstream, events)
    }

    /// The drain loop, run outside the lock: performs `step`, then each step `next` takes under
    /// the lock, until one is `.idle`; hands the demand of each value to `demanded` as soon as it
    /// is returned (when it is not `.none`).
    @inlinable
    static func drain(from step: consuming Step, next: () -> Step, _ demanded: (Subscribers.Demand) -> Void) {
        // Each step is moved into the switch, not read in place: a `while case` over it copied
        // the step and then destroyed it, a retain and release of the subscriber a value.
        while true {
            switch consume step {
            case .idle:
                return
            case .deliver(.value(let value), let downstream):
                let demand = downstream.receive(value)
                if demand > 0 { demanded(demand) }
            case .deliver(.completion(let completion), let downstream):
                downstream.receive(completion: completion)
            }
            step = next()
        }
    }

    @inlinable
    mutating func release() {
        downstream = nil
        events.removeAll()
        ready = 0
    }
}

/// A ``DeliveryQueue`` under its lock, with the drain loop that performs it.
@usableFromInline
internal struct DeliveryLine<Downstream: Subscriber>: ~Copyable, @unchecked Sendable {
    @usableFromInline let queue: Locked<DeliveryQueue<Downstream>>

    @inlinable
    init(downstream: Downstream) {
        queue = Locked(DeliveryQueue(downstream: downstream))
    }

    /// The downstream, while the stream lasts.
    @inlinable
    var downstream: Downstream? { queue.withLock { $0.downstream } }

    /// Hands `downstream` its subscription, with what comes due on another thread meanwhile
    /// held back until it returns (``DeliveryQueue/beginHandOver()`` to
    /// ``DeliveryQueue/endHandOver()``).
    /// - Returns: `true` when events wait: the caller schedules one more action that drains the
    ///   line.
    @inlinable
    func handOver(_ subscription: any Subscription, to downstream: Downstream) -> Bool {
        queue.withLock { $0.beginHandOver() }
        downstream.receive(subscription: subscription)
        return queue.withLock { $0.endHandOver() }
    }

    /// Another thread is handing the downstream its subscription: what comes due now waits.
    @inlinable
    var handsOverElsewhere: Bool { queue.withLock { $0.handsOverElsewhere } }

    /// Queues an event; `false` once the stream has ended.
    @inlinable
    func enqueue(_ event: DeliveryQueue<Downstream>.Event) -> Bool {
        queue.withLock { $0.enqueue(event) }
    }

    /// Runs from a scheduled action: delivers this event, and any others already due, unless
    /// another action is delivering.
    /// - Returns: The demand the downstream returned from its values.
    @inlinable
    func due() -> Subscribers.Demand {
        var total = Subscribers.Demand.none
        due { total += $0 }
        return total
    }

    /// Runs from a scheduled action, as ``due()``, but hands the demand of each value to
    /// `demanded` as soon as it is returned (when it is not `.none`), as Combine requests it
    /// after each delivery.
    @inlinable
    func due(_ demanded: (Subscribers.Demand) -> Void) {
        DeliveryQueue.drain(from: queue.withLock { $0.due() }, next: { queue.withLock { $0.next() } }, demanded)
    }

    /// Queues an event and delivers it at once: for code already running on the scheduler.
    /// - Returns: The demand the downstream returned, or `nil` when the stream had ended.
    @inlinable
    func deliverNow(_ event: DeliveryQueue<Downstream>.Event) -> Subscribers.Demand? {
        guard enqueue(event) else { return nil }
        return due()
    }

    /// Ends the stream from the downstream's side, releasing the downstream and the queued
    /// events outside the lock.
    @inlinable
    func cancel() {
        let released = queue.withLock { $0.cancel() }
        _ = released
    }
}
