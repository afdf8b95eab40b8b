import TetherCore

/// The state machine of ``Publishers/AsyncMap`` and ``Publishers/TryAsyncMap``: ordered results,
/// at most `maxConcurrent` transforms, upstream demand limited by both.
///
/// A *slot* is one upstream value, from its arrival until its result is delivered; slots are
/// kept in input order. Slots whose transform is still running and slots whose result waits for
/// an earlier one both count against `maxConcurrent`, so the results held never exceed it.
/// Upstream is asked for `min(maxConcurrent, downstream demand) - (slots + values asked for and
/// not yet received)`: never more than can be transformed, never more than will be delivered.
///
/// `Handle` is what cancels a running transform (a `Task` in the operator, a plain value in
/// tests). Mutating methods return what the caller must do after unlocking.
@usableFromInline
internal struct AsyncMapState<Output, Failure: Error, Handle> {
    @usableFromInline
    internal struct Slot {
        @usableFromInline let id: Int
        @usableFromInline var handle: Handle?
        @usableFromInline var result: Result<Output, Failure>?

        @inlinable
        init(id: Int) {
            self.id = id
        }
    }

    /// The next thing to deliver downstream.
    @usableFromInline
    internal enum Delivery {
        case value(Output)
        case finished
        /// Fail downstream, after cancelling these transforms and the upstream subscription.
        case failure(Failure, cancel: [Handle])
        /// Nothing deliverable now; the caller stops delivering.
        case idle
    }

    @usableFromInline let maxConcurrent: Int
    /// Downstream demand not yet met.
    @usableFromInline var demand: Subscribers.Demand = .none
    /// Values requested from upstream and not yet received.
    @usableFromInline var requested = 0
    /// Oldest first; offsets count from the oldest.
    @usableFromInline var slots = RingBuffer<Slot>()
    @usableFromInline var nextID = 0
    @usableFromInline var upstreamFinished = false
    @usableFromInline var upstreamFailure: Failure?
    /// Completed or cancelled: nothing more happens.
    @usableFromInline var isTerminal = false
    /// Someone is delivering; others leave the delivery to them.
    @usableFromInline var isDelivering = false

    @inlinable
    init(maxConcurrent: Int) {
        precondition(maxConcurrent > 0, "asyncMap needs maxConcurrent of at least 1, not \(maxConcurrent)")
        self.maxConcurrent = maxConcurrent
    }

    /// How many transforms are running now.
    @inlinable
    var running: Int { slots.reduce(0) { $0 + ($1.result == nil ? 1 : 0) } }

    /// Records upstream demand about to be requested; returns how much (0: none).
    @inlinable
    mutating func takeUpstreamRequest() -> Int {
        guard !isTerminal, !upstreamFinished, upstreamFailure == nil else { return 0 }
        let limit = demand.max.map { Swift.min($0, maxConcurrent) } ?? maxConcurrent
        let more = Swift.max(0, limit - slots.count - requested)
        requested += more
        return more
    }

    /// Downstream asked for more; returns what to request from upstream.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Int {
        precondition(more > 0, "Demand must not be zero: asyncMap was asked for .none")
        guard !isTerminal else { return 0 }
        demand += more
        return takeUpstreamRequest()
    }

    /// An upstream value arrived; returns its slot id, or `nil` to drop it (not requested, or
    /// the stream is over).
    @inlinable
    mutating func receive() -> Int? {
        guard !isTerminal, !upstreamFinished, upstreamFailure == nil, requested > 0 else { return nil }
        requested -= 1
        defer { nextID += 1 }
        slots.append(Slot(id: nextID))
        return nextID
    }

    /// Keeps the handle of the transform for slot `id`; `false` when the caller must cancel it
    /// instead (the transform already finished, or the stream is over).
    @inlinable
    mutating func attach(_ handle: Handle, to id: Int) -> Bool {
        guard !isTerminal, let index = slots.firstIndex(where: { $0.id == id }),
            slots[index].result == nil
        else { return false }
        slots[index].handle = handle
        return true
    }

    /// The transform for slot `id` finished; returns whether a delivery may now be possible.
    @inlinable
    mutating func complete(_ id: Int, with result: Result<Output, Failure>) -> Bool {
        guard !isTerminal, let index = slots.firstIndex(where: { $0.id == id }) else { return false }
        slots[index].result = result
        slots[index].handle = nil
        return index == 0
    }

    /// Upstream finished: the results still due are delivered, then `.finished`.
    @inlinable
    mutating func finish() {
        guard !isTerminal else { return }
        upstreamFinished = true
        requested = 0
    }

    /// Upstream failed: the failure goes downstream at once, as with `flatMap`.
    @inlinable
    mutating func fail(_ failure: Failure) {
        guard !isTerminal else { return }
        upstreamFailure = failure
        requested = 0
    }

    /// Claims delivery; `nil` when someone else is delivering (they will see the change).
    @inlinable
    mutating func startDelivery() -> Delivery? {
        guard !isDelivering else { return nil }
        isDelivering = true
        return nextDelivery()
    }

    /// What the deliverer does next; `.idle` (or a completion) ends its claim.
    @inlinable
    mutating func nextDelivery() -> Delivery {
        precondition(isDelivering, "asyncMap delivered without claiming delivery")
        guard !isTerminal else {
            isDelivering = false
            return .idle
        }
        if let failure = upstreamFailure {
            return terminate(.failure(failure, cancel: cancelAll()))
        }
        if let head = slots.first, let result = head.result {
            switch result {
            case .failure(let failure):
                return terminate(.failure(failure, cancel: cancelAll()))
            case .success(let output):
                guard demand > 0 else { break }
                demand -= 1
                _ = slots.popFirst()
                return .value(output)
            }
        } else if slots.isEmpty && upstreamFinished {
            return terminate(.finished)
        }
        isDelivering = false
        return .idle
    }

    /// A value was delivered and downstream returned `more`; returns what to request upstream.
    @inlinable
    mutating func delivered(returning more: Subscribers.Demand) -> Int {
        demand += more
        return takeUpstreamRequest()
    }

    /// Downstream cancelled; returns the transforms to cancel.
    @inlinable
    mutating func cancel() -> [Handle] {
        guard !isTerminal else { return [] }
        isTerminal = true
        return cancelAll()
    }

    @inlinable
    mutating func terminate(_ delivery: Delivery) -> Delivery {
        isTerminal = true
        isDelivering = false
        return delivery
    }

    @inlinable
    mutating func cancelAll() -> [Handle] {
        defer {
            slots.removeAll()
            requested = 0
        }
        return slots.compactMap(\.handle)
    }
}
