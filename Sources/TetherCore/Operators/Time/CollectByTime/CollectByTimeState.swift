/// The state machine behind ``Publishers/CollectByTime``: every method runs under the operator's
/// lock, calls nothing, and returns what the caller must do once the lock is released.
///
/// Values gather in `buffer`. Each tick of the periodic timer publishes what has gathered (up
/// to `count`, with `.byTimeOrCount`), if anything has and the downstream has demand;
/// `.byTimeOrCount` also publishes as soon as `count` values have gathered. Demand the
/// downstream returns from a group published by the timer is granted without asking the upstream
/// for more (see ``grant(_:)``). When the upstream finishes, what is left goes out before the
/// completion; a failure drops it.
@usableFromInline
internal struct CollectByTimeState<Output> {
    /// `nil` for `.byTime`.
    @usableFromInline let count: Int?
    @usableFromInline var buffer: [Output] = []
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var terminal = false

    @inlinable
    init(count: Int?) {
        self.count = count
    }

    /// The demand a value returns to the upstream: one more with `.byTime`, none with
    /// `.byTimeOrCount` (which asks for `count` values per group the downstream demands).
    /// Combine's numbers (observed against Apple's Combine in CombineX's `CollectByTimeSpec`):
    /// `.byTime` keeps one value asked for at a time, once the downstream has asked.
    @inlinable
    var upstreamDemandPerValue: Subscribers.Demand { count == nil ? .max(1) : .none }

    /// A value arrived.
    /// - Returns: A full group to publish now, if there is one and demand allows.
    @inlinable
    mutating func receive(_ value: Output) -> [Output]? {
        guard !terminal else { return nil }
        buffer.append(value)
        guard let count, buffer.count >= count else { return nil }
        return take()
    }

    /// The periodic timer fired.
    /// - Returns: The group to publish, if there is one and demand allows.
    @inlinable
    mutating func tick() -> [Output]? {
        guard !terminal else { return nil }
        return take()
    }

    @inlinable
    mutating func take() -> [Output]? {
        guard !buffer.isEmpty, demand > 0 else { return nil }
        demand -= 1
        let size = count.map { Swift.min($0, buffer.count) } ?? buffer.count
        defer { buffer.removeFirst(size) }
        return Array(buffer.prefix(size))
    }

    /// The downstream asked for more groups (by request, or returned from a full group).
    /// - Returns: What to ask the upstream for: `count` values per group with
    ///   `.byTimeOrCount`; one value with `.byTime`, as Combine asks whatever the downstream
    ///   asked for.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Subscribers.Demand {
        guard !terminal else { return .none }
        demand += more
        guard let count else { return .max(1) }
        return more * count
    }

    /// The downstream returned more demand from a group the timer published: it counts toward
    /// the groups that may go out, but the upstream is not asked for more values. That is what
    /// Combine does (observed against Apple's Combine: a group published by the timer asks the
    /// upstream for nothing, while one published because it was full does), so a subscriber
    /// that relies on it gets what it would get there.
    @inlinable
    mutating func grant(_ more: Subscribers.Demand) {
        guard !terminal else { return }
        demand += more
    }

    /// The upstream completed.
    /// - Returns: Whether this ended the stream, and the group to publish before `.finished`.
    @inlinable
    mutating func finish(failed: Bool) -> (ended: Bool, rest: [Output]?) {
        guard !terminal else { return (false, nil) }
        terminal = true
        defer { buffer = [] }
        return (true, failed || buffer.isEmpty ? nil : buffer)
    }

    /// The downstream cancelled.
    @inlinable
    mutating func cancel() {
        terminal = true
        buffer = []
    }
}
