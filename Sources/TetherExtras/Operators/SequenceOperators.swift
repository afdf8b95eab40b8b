import TetherCore

// Operators beyond Combine's catalogue that number, pair or window values, composed of Combine's
// own operators: they add no subscription type of their own.

extension Publisher {
    /// Pairs each value with its position in the stream, counting from zero.
    ///
    /// Composed as a `scan` that counts, followed by a `compactMap` that unwraps the pair (it
    /// never drops a value: every counted state holds one).
    ///
    /// Demand passes through unchanged, one value for one pair. Failure type: this publisher's;
    /// completion passes through. Pairs are delivered on the thread that delivers this
    /// publisher's values.
    /// - Returns: A publisher of `(offset, element)` pairs.
    @inlinable
    public func enumerated()
        -> Publishers.CompactMap<
            Publishers.Scan<Self, (offset: Int, element: Output?)>, (offset: Int, element: Output)
        >
    {
        scan((offset: -1, element: nil)) { counted, value in (offset: counted.offset + 1, element: value) }
            .compactMap { counted in counted.element.map { (offset: counted.offset, element: $0) } }
    }

    /// Publishes each value together with the one before it; the first value publishes nothing.
    ///
    /// Composed as a `scan` that keeps the last two values, followed by a `compactMap` that drops
    /// the state holding only one.
    ///
    /// Demand: one value is asked for each pair; the first value, which makes no pair, is asked
    /// for again. Failure type: this publisher's; completion passes through (a publisher of one
    /// value finishes without publishing). Pairs are delivered on the thread that delivers this
    /// publisher's values.
    /// - Returns: A publisher of `(previous, current)` pairs of consecutive values.
    @inlinable
    public func pairwise()
        -> Publishers.CompactMap<
            Publishers.Scan<Self, (previous: Output?, current: Output?)>, (previous: Output, current: Output)
        >
    {
        scan((previous: nil, current: nil)) { last, value in (previous: last.current, current: value) }
            .compactMap { last in
                guard let previous = last.previous, let current = last.current else { return nil }
                return (previous: previous, current: current)
            }
    }

    /// Publishes sliding windows of `size` consecutive values, one window per value once `size`
    /// values have arrived.
    ///
    /// With `size` 3, values `1, 2, 3, 4` publish `[1, 2, 3]` and `[2, 3, 4]`. A publisher that
    /// finishes with fewer than `size` values publishes nothing. Composed as a `scan` that keeps
    /// the last `size` values, followed by a `filter` that drops the windows not yet full.
    ///
    /// Demand: one value is asked for each window; each of the first `size - 1` values, which
    /// fill no window, is asked for again. Failure type: this publisher's; completion passes
    /// through. Windows are delivered on the thread that delivers this publisher's values.
    /// - Parameter size: The number of values in a window; it must be positive (a size of zero
    ///   or less traps).
    /// - Returns: A publisher of arrays of `size` consecutive values.
    @inlinable
    public func nwise(_ size: Int) -> Publishers.Filter<Publishers.Scan<Self, [Output]>> {
        precondition(size > 0, "nwise(_:) needs a positive window size, got \(size)")
        return scan([]) { window, value in
            // Each window is a new array anyway: build it once, from the newest `size - 1`.
            var next: [Output] = []
            next.reserveCapacity(size)
            next.append(contentsOf: window.suffix(size - 1))
            next.append(value)
            return next
        }
        .filter { $0.count == size }
    }
}

extension Publisher where Output == Bool {
    /// Publishes the negation of each Boolean value.
    ///
    /// Composed as `map { !$0 }`: demand passes through unchanged, the failure type is this
    /// publisher's, completion passes through, and values are delivered on the thread that
    /// delivers this publisher's values.
    /// - Returns: A publisher of the negated values.
    @inlinable
    public func toggle() -> Publishers.Map<Self, Bool> {
        map { !$0 }
    }
}
