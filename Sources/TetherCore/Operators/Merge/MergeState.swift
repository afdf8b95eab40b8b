/// The state machine behind every merge publisher (``Publishers/Merge`` … ``Publishers/Merge8``
/// and ``Publishers/MergeMany``), over any number of upstreams indexed by position.
///
/// It is a plain value: the storage keeps it under a lock, and each mutating method returns what
/// the caller must do once the lock is released. Values are erased to `Any` only when they have
/// to wait in the queue; a value that can go straight downstream never enters the machine.
///
/// Delivery is serialised by a drain loop: at most one thread, *the drainer*, calls the
/// downstream at a time. A value or completion that arrives while someone drains is queued and
/// delivered by that drainer after its current call returns, so upstreams on different threads
/// never overlap in the subscriber and reentrant sends never recurse.
///
/// Demand follows Combine: while the downstream's demand is finite, each upstream is asked for
/// one value at a time (a one-value prefetch, refilled as its value goes downstream), and a value
/// sent beyond that replaces its upstream's waiting one (``supersede(_:)``); once the downstream
/// asks for `.unlimited`, every upstream is asked for `.unlimited`.
@usableFromInline
internal struct MergeState {
    @usableFromInline
    internal enum Phase {
        case running
        /// The completion is decided; the drainer delivers it once the queue allows.
        case completing(Subscribers.Completion<any Error>)
        /// Completed or cancelled: nothing more happens.
        case over
    }

    /// What the drainer does next.
    @usableFromInline
    internal enum Step {
        /// Stop draining.
        case idle
        /// Stop draining and let go of the downstream: the merge was cancelled meanwhile.
        case release
        /// Deliver the queued value, then ask `refill` (if any) for one more.
        case deliver(Any, refill: (any Subscription)?)
        /// Complete the downstream and let go of it.
        case complete(Subscribers.Completion<any Error>)
    }

    /// What became of a value from an upstream.
    @usableFromInline
    internal enum Arrival: Equatable {
        /// The caller is now the drainer and delivers the value itself; with `refill`, it
        /// returns `.max(1)` to the upstream afterwards.
        case deliverNow(refill: Bool)
        /// Queued for the drainer.
        case queued
        /// The merge is over, or the upstream already completed.
        case dropped
    }

    /// A queued value and the upstream it came from.
    @usableFromInline
    internal struct Queued {
        @usableFromInline let index: Int
        @usableFromInline let value: Any

        @inlinable
        init(index: Int, value: Any) {
            self.index = index
            self.value = value
        }
    }

    @usableFromInline var children: [CombiningUpstream]
    @usableFromInline var phase = Phase.running
    @usableFromInline var demand = Subscribers.Demand.none
    /// Values in arrival order, waiting for demand or for the drainer. A value leaves the queue
    /// as it goes downstream, so the queue never holds one that was delivered.
    @usableFromInline var queue = RingBuffer<Queued>()
    /// The most values an emptied queue keeps room for.
    @usableFromInline static let keptCapacity = 256
    /// A thread is calling the downstream. Initially: the subscription is being handed over.
    @usableFromInline var draining = true
    /// The downstream asked for `.unlimited`, and so was every upstream.
    @usableFromInline var unlimited = false

    @inlinable
    internal init(upstreams: Int) {
        children = Array(repeating: CombiningUpstream(), count: upstreams)
    }

    @inlinable
    internal var hasQueued: Bool { !queue.isEmpty }

    /// Upstream `index` handed over its subscription.
    /// - Returns: The demand to request from it, or `nil` when the subscription must be
    ///   cancelled (a second subscription, or one that arrives after the merge ended).
    @inlinable
    internal mutating func attach(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard case .running = phase, children[index].attach(subscription) else { return nil }
        return unlimited ? .unlimited : .max(1)
    }

    /// Upstream `index` sent a value; `value` is evaluated only when the value must be queued.
    @inlinable
    internal mutating func receive(_ index: Int, _ value: @autoclosure () -> Any) -> Arrival {
        guard case .running = phase, children[index].status.accepts else { return .dropped }
        if demand > 0, !draining, !hasQueued {
            demand -= 1
            draining = true
            return .deliverNow(refill: !unlimited)
        }
        if !unlimited { supersede(index) }
        queue.append(Queued(index: index, value: value()))
        return .queued
    }

    /// While the downstream's demand is finite, each upstream is asked for one value at a time and
    /// asked again only once its value has gone downstream: an upstream with a value waiting that
    /// sends another has sent it beyond what it was asked for. Combine keeps only the latest value
    /// of each such upstream (OpenCombine's `testUpstreamExceedsDemand`, run against Combine), so
    /// the waiting one is dropped, and the new one waits in arrival order.
    @inlinable
    mutating func supersede(_ index: Int) {
        guard let offset = queue.firstIndex(where: { $0.index == index }) else { return }
        queue.remove(at: offset)
    }

    /// Upstream `index` completed.
    /// - Returns: The upstreams to cancel (after a failure), and `.complete` when the caller has
    ///   become the drainer and must deliver the completion; otherwise `.idle`.
    @inlinable
    internal mutating func complete(
        _ index: Int, _ completion: Subscribers.Completion<any Error>
    ) -> (cancel: [any Subscription], step: Step) {
        guard case .running = phase, children[index].status.accepts else {
            return ([], .idle)
        }
        let own = children[index].endTakingSubscription()
        if case .failure = completion {
            // A failure overtakes whatever is queued, and ends every upstream: the others, and
            // the one that failed, which Combine's merge cancels too (OpenCombine's
            // `testBCancelledAfterAFailed`, run against Combine).
            var ended = releaseChildren()
            if let own { ended.insert(own, at: 0) }
            dropQueue()
            if draining {
                phase = .completing(completion)
                return (ended, .idle)
            }
            draining = true
            phase = .over
            return (ended, .complete(completion))
        }
        guard children.allDone else { return ([], .idle) }
        if draining || hasQueued {
            phase = .completing(completion)
            return ([], .idle)
        }
        draining = true
        phase = .over
        return ([], .complete(completion))
    }

    /// The downstream asked for more.
    /// - Returns: The upstreams to ask for `.unlimited` (the first time the downstream's demand
    ///   becomes unlimited), and `.deliver` when the caller has become the drainer.
    @inlinable
    internal mutating func request(_ more: Subscribers.Demand) -> (unlimit: [any Subscription], step: Step) {
        if case .over = phase { return ([], .idle) }
        demand += more
        var unlimit: [any Subscription] = []
        if demand.isUnlimited, !unlimited {
            unlimited = true
            unlimit = children.subscriptions
        }
        guard !draining, demand > 0, hasQueued else { return (unlimit, .idle) }
        draining = true
        return (unlimit, dequeue())
    }

    /// The drainer's call into the downstream returned `more`: what it does next.
    @inlinable
    internal mutating func delivered(_ more: Subscribers.Demand) -> Step {
        precondition(draining, "Merge: only the drainer may report a delivery")
        switch phase {
        case .over:
            draining = false
            return .release
        case .completing(let completion):
            demand += more
            if case .finished = completion, demand > 0, hasQueued { return dequeue() }
            if case .failure = completion { return finish(completion) }
            if !hasQueued { return finish(completion) }
        case .running:
            demand += more
            if demand > 0, hasQueued { return dequeue() }
        }
        draining = false
        return .idle
    }

    /// The drainer's call into the downstream returned `more`: whether that ends its turn, with
    /// nothing queued that the demand allows and no completion due, as on the usual path. When it
    /// does not, nothing has changed, and ``delivered(_:)`` says what comes next.
    @inlinable
    internal mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard case .running = phase else { return false }
        let total = demand + more
        guard total == .none || !hasQueued else { return false }
        demand = total
        draining = false
        return true
    }

    /// The downstream cancelled.
    /// - Returns: The upstreams to cancel, and whether the caller must let go of the downstream
    ///   (when nobody is draining; otherwise the drainer does it).
    @inlinable
    internal mutating func cancel() -> (cancel: [any Subscription], release: Bool) {
        if case .over = phase { return ([], false) }
        phase = .over
        dropQueue()
        return (releaseChildren(), !draining)
    }

    @inlinable
    mutating func finish(_ completion: Subscribers.Completion<any Error>) -> Step {
        phase = .over
        dropQueue()
        return .complete(completion)
    }

    @inlinable
    mutating func dequeue() -> Step {
        let next = queue.popFirst()!
        if queue.isEmpty, queue.capacity > MergeState.keptCapacity {
            // An emptied queue keeps a small ring, so that steady bursts cost no allocation, and
            // lets go of a large one, so that one long burst does not hold its memory for as long
            // as the merge lives.
            queue.removeAll()
        }
        demand -= 1
        var refill: (any Subscription)?
        if !unlimited {
            refill = children[next.index].subscription
        }
        return .deliver(next.value, refill: refill)
    }

    @inlinable
    mutating func dropQueue() {
        queue.removeAll()
    }

    /// Every subscription still held, which the machine forgets.
    @inlinable
    mutating func releaseChildren() -> [any Subscription] {
        var released: [any Subscription] = []
        for index in children.indices {
            if let subscription = children[index].endTakingSubscription() { released.append(subscription) }
        }
        return released
    }
}
