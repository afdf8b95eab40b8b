/// Calls on what a subscription keeps in a class's `var` for its serial path (its subscriber, a
/// sink's closure), borrowed where it is stored rather than copied.
///
/// Swift calls a method on a value read from a class's `var` through a copy, since the property
/// could change during the call: a retain and a release of every reference the value holds, each
/// an atomic read-modify-write. Passed `inout`, the storage belongs to the callee for the length
/// of the call (the law of exclusivity), so the optimiser borrows the value in place and the copy
/// goes (a send to a subject's `sink`: 312 to 288 instructions, two read-modify-writes fewer; a
/// `share()` with three subscribers: 1,925 to 1,535).
///
/// Kept out of line on purpose: inlined, the `inout` parameter is the class's property again and
/// the optimiser went back to copying a relay (`share()`'s subscription, 1,535 instructions a
/// send out of line, 1,820 inlined); the call costs about nine instructions and no atomics.
///
/// Sound only where nothing writes the property while the call runs. That is what the hand-offs
/// of a serial path guarantee (``ReleaseHandOff``, ``SubjectLane``): a cancel from inside the
/// call, or from another thread, and a completion that reenters the delivery
/// (``ReleaseHandOff/stopBeneathDeliveries(entered:)``) leave the release to the end of the
/// outermost delivery, and where the serial path overlaps itself it is a delivery nested in
/// another on the same thread (a reentrant value, as Combine nests it), which reads the property
/// as the outer call does and writes nothing. Every caller names the protocol it relies on.
/// Docs/FastWithoutTheSpecialiser.md, "Subscribers kept where calls borrow them", has the rest.
@usableFromInline
package enum InPlace {
    /// Calls the closure kept in `closure`, if any, with `value`.
    @inlinable @inline(never)
    package static func call<Value>(_ closure: inout ((Value) -> Void)?, with value: Value) {
        closure?(value)
    }

    /// Applies the closure kept in `closure`, if any, to `value`.
    /// - Returns: What the closure returned, or `nil` when none is kept.
    @inlinable @inline(never)
    package static func apply<Value, Result>(_ closure: inout ((Value) throws -> Result)?, to value: Value) throws
        -> Result?
    {
        try closure?(value)
    }

    /// Hands `input` to the subscriber kept in `subscriber`.
    /// - Returns: The subscriber's demand, or `.none` when none is kept.
    @inlinable @inline(never)
    package static func receive<Downstream: Subscriber>(
        _ input: Downstream.Input, by subscriber: inout Downstream?
    ) -> Subscribers.Demand {
        subscriber?.receive(input) ?? .none
    }
}
