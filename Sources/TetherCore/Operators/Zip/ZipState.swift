/// The state machine behind ``Publishers/Zip``, ``Publishers/Zip3``, ``Publishers/Zip4`` and
/// ``Publishers/ZipCollection``: one machine for every arity, over upstreams indexed by position.
///
/// Each upstream's unpaired values wait, typed, in its ``ZipSlot``; the machine counts them.
/// Whenever every upstream has a value waiting and the downstream has demand, the oldest value
/// of each is taken, in order, as the output. Each mutating method returns a ``CombiningOutcome``
/// that the caller performs once the lock is released, and a delivery's output is put where the
/// caller said.
///
/// Demand follows Combine: every request from the downstream (and demand it returns from
/// `receive(_:)`) is forwarded to every upstream, and an upstream that subscribes late is asked
/// for the total so far; but while a tuple is delivered inside an upstream's `receive(_:)`, what
/// the downstream asks for is returned to that upstream from its `receive(_:)` instead of
/// requested. A tuple goes downstream as soon as every upstream has a value waiting: the zip
/// trusts its upstreams to keep to the demand forwarded to them, and what an upstream sends
/// beyond it is paired and delivered rather than held back. The zip finishes as soon as an upstream has finished and its queue is
/// empty, since no further tuple can be completed; the other upstreams are then cancelled. It
/// fails with the first failure. Delivery is serialised by a drain loop: at most one thread, the
/// drainer, calls the downstream at a time.
@usableFromInline
package struct ZipState<Slots: CombiningSlots>: CombiningState {
    @usableFromInline package typealias Outcome = CombiningOutcome

    /// "Zip", as its subscriptions describe themselves.
    @usableFromInline static package var name: StaticString { "Zip" }

    @usableFromInline package var upstreams: [CombiningUpstream]
    @usableFromInline package var live: [any Subscription] = []
    @usableFromInline package var slots: Slots
    /// Upstreams with no value waiting: a tuple can be made when there are none.
    @usableFromInline package var empty: Int
    @usableFromInline package var phase = CombiningPhase.running
    @usableFromInline package var demand = Subscribers.Demand.none
    @usableFromInline package var forwarded = Subscribers.Demand.none
    @usableFromInline package var draining = true
    @usableFromInline package var sender: Int?
    @usableFromInline package var owed = Subscribers.Demand.none

    @inlinable
    package init(upstreams count: Int) {
        upstreams = Array(repeating: CombiningUpstream(), count: count)
        slots = Slots(upstreams: count)
        empty = count
    }

    /// Upstream `index` sent a value.
    @inlinable
    package mutating func receive(
        _ index: Int, into output: UnsafeMutablePointer<Slots.Output>, _ put: (inout Slots) -> Void
    ) -> Outcome {
        guard phase.accepts(upstreams, index) else { return Outcome() }
        put(&slots)
        upstreams[index].held += 1
        if upstreams[index].held == 1 { empty -= 1 }
        // It waits for its partners, or for the thread delivering to pair it.
        guard ready, !draining else { return Outcome() }
        draining = true
        sender = index
        var outcome = Outcome(step: .deliver)
        take(&outcome, into: output)
        return outcome
    }

    /// A value sent from inside the downstream's `receive(_:)`, on the delivering thread, is
    /// received like any other, to be paired once its partners arrive (OpenCombine's
    /// `testUpstreamValueReceivedWhileSendingValue`, run against Combine); so
    /// ``receive(_:into:_:)`` serves for it, which ``receiveFromDelivery(_:into:_:)`` only repeats.
    @usableFromInline package static var tellsFedBackValuesApart: Bool { false }

    @inlinable
    package mutating func receiveFromDelivery(
        _ index: Int, into output: UnsafeMutablePointer<Slots.Output>, _ put: (inout Slots) -> Void
    ) -> Outcome {
        receive(index, into: output, put)
    }

    /// Upstream `index` completed.
    @inlinable
    package mutating func complete(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> Outcome {
        guard phase.accepts(upstreams, index) else { return Outcome() }
        // As in Combine, a failing upstream is cancelled with the others (`end` cancels every
        // live subscription); a finished one is simply let go of.
        if case .finished = completion { forget(index) }
        upstreams[index].finished = true
        if case .finished = completion, upstreams[index].held > 0 {
            // Its queued values may still complete tuples.
            return Outcome()
        }
        var outcome = Outcome()
        end(completion, &outcome)
        guard !draining else { return outcome }
        // Ended: the completion is the next step, and nothing is delivered before it.
        draining = true
        phase = .over
        outcome.step = .complete(completion)
        return outcome
    }

    /// Decides the completion: no further tuple can be made. Cancels the live upstreams.
    @inlinable
    package mutating func end(_ completion: Subscribers.Completion<any Error>, _ outcome: inout Outcome) {
        phase = .completing(completion)
        outcome.cancel = releaseChildren()
        dropValues()
    }

    /// Every upstream has a value waiting. Demand does not hold a tuple back (see above).
    @inlinable
    package var ready: Bool { empty == 0 }

    /// The next tuple, else the completion once it is decided.
    @inlinable
    package mutating func next(_ outcome: inout Outcome, into output: UnsafeMutablePointer<Slots.Output>)
        -> CombiningStep
    {
        switch phase {
        case .over:
            return .idle
        case .completing(let completion):
            phase = .over
            return .complete(completion)
        case .running:
            break
        }
        guard ready else { return .idle }
        take(&outcome, into: output)
        return .deliver
    }

    /// Puts the oldest value of every upstream, as a tuple, in `output`: the stream is running
    /// and a tuple is ready.
    @inlinable
    package mutating func take(_ outcome: inout Outcome, into output: UnsafeMutablePointer<Slots.Output>) {
        if demand > 0 { demand -= 1 }
        output.initialize(to: slots.emit())
        var exhausted = false
        for index in upstreams.indices {
            upstreams[index].held -= 1
            if upstreams[index].held == 0 {
                empty += 1
                if upstreams[index].finished { exhausted = true }
            }
        }
        if exhausted {
            // The completion follows this tuple, once the downstream has it.
            end(.finished, &outcome)
        }
    }

    @inlinable
    package mutating func dropValues() {
        slots.removeAll()
        for index in upstreams.indices { upstreams[index].held = 0 }
        empty = upstreams.count
    }
}
