/// The state machine behind ``Publishers/CombineLatest``, ``Publishers/CombineLatest3``,
/// ``Publishers/CombineLatest4`` and ``Publishers/CombineLatestCollection``: one machine for every
/// arity, over upstreams indexed by position.
///
/// It keeps the latest value of each upstream, typed, in its ``LatestSlot``; a full set of slots
/// is read as the output. Each mutating method returns a ``CombiningOutcome`` that the caller
/// performs once the lock is released, and a delivery's output is put where the caller said.
///
/// Demand follows Combine: every request from the downstream (and demand it returns from
/// `receive(_:)`) is forwarded to every upstream, and an upstream that subscribes late is asked
/// for the total so far. Once every upstream has produced a value, each new value makes a new
/// combination: delivered when there is demand, queued for the drainer when another thread is
/// delivering, and dropped when there is no demand (its values stay the latest, for the
/// combinations later values make), as Combine drops it (OpenCombine's
/// `testUpstreamExceedsDemand`, run against Combine: demand that arrives later delivers nothing
/// until a new value comes). Delivery is serialised by a drain loop: at most one thread, the
/// drainer, calls the downstream at a time.
@usableFromInline
package struct CombineLatestState<Slots: CombiningSlots>: CombiningState {
    @usableFromInline package typealias Outcome = CombiningOutcome

    /// "CombineLatest", as its subscriptions describe themselves.
    @usableFromInline package static var name: StaticString { "CombineLatest" }

    /// A value sent from inside a delivery makes no combination
    /// (``receiveFromDelivery(_:into:_:)``).
    @usableFromInline package static var tellsFedBackValuesApart: Bool { true }

    @usableFromInline package var upstreams: [CombiningUpstream]
    @usableFromInline package var live: [any Subscription] = []
    @usableFromInline package var slots: Slots
    /// Upstreams that have not produced a value yet.
    @usableFromInline package var missing: Int
    @usableFromInline package var phase = CombiningPhase.running
    @usableFromInline package var demand = Subscribers.Demand.none
    @usableFromInline package var forwarded = Subscribers.Demand.none
    /// Combinations already counted against demand, waiting for the drainer.
    @usableFromInline package var queue = RingBuffer<Slots.Output>()
    @usableFromInline package var draining = true
    /// Never set: combine-latest asks every upstream for what its downstream asks.
    @usableFromInline package var sender: Int?
    @usableFromInline package var owed = Subscribers.Demand.none

    @inlinable
    package init(upstreams count: Int) {
        upstreams = Array(repeating: CombiningUpstream(), count: count)
        slots = Slots(upstreams: count)
        missing = count
    }

    /// Upstream `index` sent a value.
    @inlinable
    package mutating func receive(
        _ index: Int, into output: UnsafeMutablePointer<Slots.Output>, _ put: (inout Slots) -> Void
    ) -> Outcome {
        guard record(index, put), missing == 0, demand > 0 else { return Outcome() }
        demand -= 1
        if draining {
            queue.append(slots.emit())
            return Outcome()
        }
        draining = true
        output.initialize(to: slots.emit())
        return Outcome(step: .deliver)
    }

    /// A value sent from inside the downstream's `receive(_:)`, on the delivering thread: it
    /// becomes its upstream's latest, for the combinations that later values make, and makes
    /// none itself, as in Combine (OpenCombine's `testUpstreamValueReceivedWhileSendingValue`,
    /// run against Combine). A subscriber that feeds an upstream back from inside `receive(_:)`
    /// so does not loop.
    @inlinable
    package mutating func receiveFromDelivery(
        _ index: Int, into output: UnsafeMutablePointer<Slots.Output>, _ put: (inout Slots) -> Void
    ) -> Outcome {
        _ = record(index, put)
        return Outcome()
    }

    /// Stores upstream `index`'s value as its latest.
    /// - Returns: `false` when the value is ignored (its upstream ended, or the stream did).
    @inlinable
    package mutating func record(_ index: Int, _ put: (inout Slots) -> Void) -> Bool {
        guard phase.accepts(upstreams, index) else { return false }
        put(&slots)
        if upstreams[index].held == 0 {
            upstreams[index].held = 1
            missing -= 1
        }
        return true
    }

    /// Upstream `index` completed.
    @inlinable
    package mutating func complete(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> Outcome {
        guard phase.accepts(upstreams, index) else { return Outcome() }
        forget(index)
        var outcome = Outcome()
        if case .failure = completion {
            // A failure overtakes the pending output, and ends every other upstream.
            outcome.cancel = releaseChildren()
            queue.removeAll()
        } else {
            guard upstreams.allDone else { return outcome }
        }
        if draining || !queue.isEmpty {
            phase = .completing(completion)
            return outcome
        }
        draining = true
        phase = .over
        outcome.step = .complete(completion)
        return outcome
    }

    /// A combination waits for the drainer.
    @inlinable
    package var ready: Bool { !queue.isEmpty }

    /// The next combination waiting for the drainer, else the completion once it is due.
    @inlinable
    package mutating func next(_ outcome: inout Outcome, into output: UnsafeMutablePointer<Slots.Output>)
        -> CombiningStep
    {
        if !queue.isEmpty {
            output.initialize(to: queue.removeFirst())
            return .deliver
        }
        if case .completing(let completion) = phase {
            phase = .over
            slots.removeAll()
            return .complete(completion)
        }
        return .idle
    }

    @inlinable
    package mutating func dropValues() {
        queue.removeAll()
        slots.removeAll()
    }
}
