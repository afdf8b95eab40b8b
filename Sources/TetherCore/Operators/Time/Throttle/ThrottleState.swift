/// The state machine behind ``Publishers/Throttle``: every method runs under the operator's lock,
/// calls nothing, and returns what the caller must do once the lock is released.
///
/// A value that arrives when no value went out in the last `interval` goes out at once (so
/// the first value is never held back). One that arrives sooner is held, and a timer is armed
/// for the end of the interval; until it fires, later values replace the held one when
/// `latest` is set, and are dropped otherwise (the first of the interval wins). A completion
/// sends the held value first. A value that finds no downstream demand is dropped.
@usableFromInline
internal struct ThrottleState<Output, Time: Strideable> {
    /// What became of a value from the upstream.
    @usableFromInline
    internal enum Arrival {
        /// Held, replaced or dropped: nothing to do now.
        case kept
        /// Deliver it now.
        case emit(Output)
        /// Held: arm a timer for this instant.
        case arm(Time)
    }

    @usableFromInline let interval: Time.Stride
    @usableFromInline let latest: Bool
    @usableFromInline var lastEmission: Time?
    @usableFromInline var pending: Output?
    @usableFromInline var armed = false
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var terminal = false

    @inlinable
    init(interval: Time.Stride, latest: Bool) {
        self.interval = interval
        self.latest = latest
    }

    @inlinable
    mutating func receive(_ value: Output, now: Time) -> Arrival {
        guard !terminal else { return .kept }
        if armed {
            if latest || pending == nil { pending = value }
            return .kept
        }
        if let last = lastEmission, last.distance(to: now) < interval {
            pending = value
            armed = true
            return .arm(last.advanced(by: interval))
        }
        guard demand > 0 else { return .kept }
        demand -= 1
        lastEmission = now
        return .emit(value)
    }

    /// The armed timer fired.
    /// - Returns: The held value to deliver, if demand allows.
    @inlinable
    mutating func fire(now: Time) -> Output? {
        guard armed, !terminal else { return nil }
        armed = false
        guard let value = pending else { return nil }
        pending = nil
        guard demand > 0 else { return nil }
        demand -= 1
        lastEmission = now
        return value
    }

    @inlinable
    mutating func request(_ more: Subscribers.Demand) {
        guard !terminal else { return }
        demand += more
    }

    /// The upstream completed.
    /// - Returns: Whether this ended the stream, and the held value to send before the
    ///   completion, if demand allows.
    @inlinable
    mutating func finish() -> (ended: Bool, last: Output?) {
        guard !terminal else { return (false, nil) }
        terminal = true
        armed = false
        defer { pending = nil }
        guard let value = pending, demand > 0 else { return (true, nil) }
        demand -= 1
        return (true, value)
    }

    /// The downstream cancelled.
    @inlinable
    mutating func cancel() {
        terminal = true
        armed = false
        pending = nil
    }
}
