/// The state machine behind ``Publishers/CombineLatest``, ``Publishers/CombineLatest3`` and
/// ``Publishers/CombineLatest4``: one machine for every arity, over upstreams indexed by position.
///
/// It keeps the latest value of each upstream in an erased slot; the typed storage assembles a
/// full set of slots into the output tuple. Each mutating method returns an ``Outcome`` that the
/// caller performs once the lock is released.
///
/// Demand follows Combine: every request from the downstream (and demand it returns from
/// `receive(_:)`) is forwarded to every upstream, and an upstream that subscribes late is asked
/// for the total so far. Once every upstream has produced a value, each new value makes a new
/// combination: delivered when there is demand, queued for the drainer when another thread is
/// delivering, and otherwise kept as the one pending combination (the latest), which goes out
/// as soon as demand arrives. Delivery is serialised by a drain loop: at most one thread, the
/// drainer, calls the downstream at a time.
@usableFromInline
internal struct CombineLatestMachine: CombiningMachine {
    @usableFromInline typealias Child = CombiningChild
    @usableFromInline typealias Phase = CombiningPhase
    @usableFromInline typealias Step = CombiningStep
    @usableFromInline typealias Outcome = CombiningOutcome

    /// "CombineLatest", as its subscriptions describe themselves.
    @usableFromInline static var name: StaticString { "CombineLatest" }

    @usableFromInline var children: [Child]
    @usableFromInline var latest: [Any?]
    /// Upstreams that have not produced a value yet.
    @usableFromInline var missing: Int
    @usableFromInline var phase = Phase.running
    @usableFromInline var demand = Subscribers.Demand.none
    /// Everything the downstream has asked for; an upstream that subscribes late is asked for it.
    @usableFromInline var forwarded = Subscribers.Demand.none
    /// Combinations already counted against demand, waiting for the drainer.
    @usableFromInline var queue: [[Any]] = []
    /// The latest combination has not gone downstream, for want of demand.
    @usableFromInline var stale = false
    /// A thread is calling the downstream. Initially: the subscription is being handed over.
    @usableFromInline var draining = true

    @inlinable
    internal init(upstreams: Int) {
        children = Array(repeating: .awaitingSubscription, count: upstreams)
        latest = Array(repeating: nil, count: upstreams)
        missing = upstreams
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
    internal mutating func receive(_ index: Int, _ value: Any) -> Step {
        guard case .running = phase else { return .idle }
        switch children[index] {
        case .awaitingSubscription:
            preconditionFailure(
                "A publisher must send the subscription before any value: CombineLatest received a value first")
        case .done:
            return .idle
        case .active:
            break
        }
        if latest[index] == nil { missing -= 1 }
        latest[index] = value
        guard missing == 0 else { return .idle }
        guard demand > 0 else {
            stale = true
            return .idle
        }
        demand -= 1
        stale = false
        if draining {
            queue.append(snapshot())
            return .idle
        }
        draining = true
        return .deliver(snapshot())
    }

    /// Upstream `index` completed.
    @inlinable
    internal mutating func complete(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> Outcome {
        guard case .running = phase else { return Outcome() }
        switch children[index] {
        case .awaitingSubscription:
            preconditionFailure(
                "A publisher must send the subscription before its completion: CombineLatest received the completion first")
        case .done:
            return Outcome()
        case .active:
            children[index] = .done
        }
        var outcome = Outcome()
        if case .failure = completion {
            // A failure overtakes the pending output, and ends every other upstream.
            outcome.cancel = releaseChildren()
            queue = []
            stale = false
        } else {
            for child in children {
                if case .done = child { continue }
                return outcome
            }
        }
        if draining || !queue.isEmpty || stale {
            phase = .completing(completion)
            return outcome
        }
        draining = true
        phase = .over
        outcome.step = .complete(completion)
        return outcome
    }

    /// The downstream asked for more (never `.none`: the storage traps on that first).
    @inlinable
    internal mutating func request(_ more: Subscribers.Demand) -> Outcome {
        if case .over = phase { return Outcome() }
        var outcome = Outcome()
        add(more, to: &outcome)
        guard !draining else { return outcome }
        outcome.step = next()
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
        precondition(draining, "CombineLatest: only the drainer may report a delivery")
        if case .over = phase {
            draining = false
            return Outcome(step: .release)
        }
        var outcome = Outcome()
        add(more, to: &outcome)
        outcome.step = next()
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
        queue = []
        stale = false
        latest = []
        return (releaseChildren(), !draining)
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

    /// The next output, if demand allows, else the completion once nothing is left to send.
    @inlinable
    mutating func next() -> Step {
        if !queue.isEmpty {
            return .deliver(queue.removeFirst())
        }
        if stale, demand > 0 {
            demand -= 1
            stale = false
            return .deliver(snapshot())
        }
        if case .completing(let completion) = phase, !stale {
            phase = .over
            latest = []
            return .complete(completion)
        }
        return .idle
    }

    @inlinable
    func snapshot() -> [Any] {
        latest.map { $0! }
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

extension CombineLatestMachine {
    /// A value from upstream `index`, as ``CombiningMachine`` asks.
    @inlinable
    internal mutating func outcome(receiving value: Any, at index: Int) -> CombiningOutcome {
        CombiningOutcome(step: receive(index, value))
    }
}
