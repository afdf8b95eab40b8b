/// The state machine behind ``Publishers/Zip``, ``Publishers/Zip3`` and ``Publishers/Zip4``: one
/// machine for every arity, over upstreams indexed by position.
///
/// Each upstream's unpaired values wait in their own erased queue; whenever every queue holds a
/// value and the downstream has demand, the oldest value of each is taken, in order, and the
/// typed storage assembles them into the output tuple. Each mutating method returns an
/// ``Outcome`` that the caller performs once the lock is released.
///
/// Demand follows Combine: every request from the downstream (and demand it returns from
/// `receive(_:)`) is forwarded to every upstream, and an upstream that subscribes late is asked
/// for the total so far. The zip finishes as soon as an upstream has finished and its queue is
/// empty, since no further tuple can be completed; the other upstreams are then cancelled. It
/// fails with the first failure. Delivery is serialised by a drain loop: at most one thread, the
/// drainer, calls the downstream at a time.
@usableFromInline
internal struct ZipMachine: CombiningMachine {
    @usableFromInline typealias Child = CombiningChild
    @usableFromInline typealias Phase = CombiningPhase
    @usableFromInline typealias Step = CombiningStep
    @usableFromInline typealias Outcome = CombiningOutcome

    /// "Zip", as its subscriptions describe themselves.
    @usableFromInline static var name: StaticString { "Zip" }

    @usableFromInline var children: [Child]
    /// Upstream `i` finished; its queue may still hold values.
    @usableFromInline var finished: [Bool]
    @usableFromInline var queues: [[Any]]
    @usableFromInline var phase = Phase.running
    @usableFromInline var demand = Subscribers.Demand.none
    /// Everything the downstream has asked for; an upstream that subscribes late is asked for it.
    @usableFromInline var forwarded = Subscribers.Demand.none
    /// A thread is calling the downstream. Initially: the subscription is being handed over.
    @usableFromInline var draining = true

    @inlinable
    internal init(upstreams: Int) {
        children = Array(repeating: .awaitingSubscription, count: upstreams)
        finished = Array(repeating: false, count: upstreams)
        queues = Array(repeating: [], count: upstreams)
    }

    /// Upstream `index` handed over its subscription.
    /// - Returns: The demand to request from it (`.none`: nothing yet), or `nil` when the
    ///   subscription must be cancelled.
    @inlinable
    internal mutating func attach(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard case .running = phase, case .awaitingSubscription = children[index] else { return nil }
        children[index] = .active(subscription)
        return forwarded
    }

    /// Upstream `index` sent a value.
    @inlinable
    internal mutating func receive(_ index: Int, _ value: Any) -> Outcome {
        guard case .running = phase else { return Outcome() }
        switch children[index] {
        case .awaitingSubscription:
            preconditionFailure(
                "A publisher must send the subscription before any value: Zip received a value first")
        case .done:
            return Outcome()
        case .active:
            break
        }
        queues[index].append(value)
        guard !draining else { return Outcome() }
        var outcome = Outcome()
        outcome.step = next(&outcome)
        if case .deliver = outcome.step { draining = true }
        return outcome
    }

    /// Upstream `index` completed.
    @inlinable
    internal mutating func complete(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> Outcome {
        guard case .running = phase else { return Outcome() }
        switch children[index] {
        case .awaitingSubscription:
            preconditionFailure(
                "A publisher must send the subscription before its completion: Zip received the completion first")
        case .done:
            return Outcome()
        case .active:
            children[index] = .done
        }
        finished[index] = true
        if case .finished = completion, !queues[index].isEmpty {
            // Its queued values may still complete tuples.
            return Outcome()
        }
        var outcome = Outcome()
        end(completion, &outcome)
        if !draining {
            draining = true
            outcome.step = next(&outcome)
        }
        return outcome
    }

    /// The downstream asked for more (never `.none`: the storage traps on that first).
    @inlinable
    internal mutating func request(_ more: Subscribers.Demand) -> Outcome {
        if case .over = phase { return Outcome() }
        var outcome = Outcome()
        add(more, to: &outcome)
        guard !draining else { return outcome }
        outcome.step = next(&outcome)
        switch outcome.step {
        case .deliver, .complete:
            draining = true
        case .idle, .release:
            break
        }
        return outcome
    }

    /// The drainer's call into the downstream returned `more`: what it does next.
    @inlinable
    internal mutating func delivered(_ more: Subscribers.Demand) -> Outcome {
        precondition(draining, "Zip: only the drainer may report a delivery")
        if case .over = phase {
            draining = false
            return Outcome(step: .release)
        }
        var outcome = Outcome()
        add(more, to: &outcome)
        outcome.step = next(&outcome)
        switch outcome.step {
        case .deliver, .complete:
            break
        case .idle, .release:
            draining = false
        }
        return outcome
    }

    /// The downstream cancelled.
    /// - Returns: The upstreams to cancel, and whether the caller must let go of the downstream
    ///   (when nobody is draining; otherwise the drainer does it).
    @inlinable
    internal mutating func cancel() -> (cancel: [any Subscription], release: Bool) {
        if case .over = phase { return ([], false) }
        phase = .over
        queues = []
        return (releaseChildren(), !draining)
    }

    /// Decides the completion: no further tuple can be made. Cancels the live upstreams.
    @inlinable
    mutating func end(_ completion: Subscribers.Completion<any Error>, _ outcome: inout Outcome) {
        phase = .completing(completion)
        outcome.cancel = releaseChildren()
        queues = []
    }

    /// Counts `more` demand and forwards it to every live upstream.
    @inlinable
    mutating func add(_ more: Subscribers.Demand, to outcome: inout Outcome) {
        guard more > 0 else { return }
        demand += more
        forwarded += more
        guard case .running = phase else { return }
        for child in children {
            if case .active(let subscription) = child { outcome.request.append(subscription) }
        }
        outcome.demand = more
    }

    /// The next tuple, if demand allows, else the completion once it is decided.
    @inlinable
    mutating func next(_ outcome: inout Outcome) -> Step {
        switch phase {
        case .over:
            return .idle
        case .completing(let completion):
            phase = .over
            return .complete(completion)
        case .running:
            break
        }
        guard demand > 0, queues.allSatisfy({ !$0.isEmpty }) else { return .idle }
        demand -= 1
        var tuple: [Any] = []
        tuple.reserveCapacity(queues.count)
        var exhausted = false
        for index in queues.indices {
            tuple.append(queues[index].removeFirst())
            if finished[index], queues[index].isEmpty { exhausted = true }
        }
        if exhausted {
            // The completion follows this tuple, once the downstream has it.
            end(.finished, &outcome)
        }
        return .deliver(tuple)
    }

    /// Every subscription still held, which the machine forgets.
    @inlinable
    mutating func releaseChildren() -> [any Subscription] {
        var released: [any Subscription] = []
        for index in children.indices {
            if case .active(let subscription) = children[index] { released.append(subscription) }
            children[index] = .done
        }
        return released
    }
}

extension ZipMachine {
    /// A value from upstream `index`, as ``CombiningMachine`` asks.
    @inlinable
    internal mutating func outcome(receiving value: Any, at index: Int) -> CombiningOutcome {
        receive(index, value)
    }
}
