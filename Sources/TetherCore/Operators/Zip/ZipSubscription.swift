/// The subscription of every zip publisher: the shared storage over ``ZipState``.
@usableFromInline
package typealias ZipSubscription<Slots: CombiningSlots, Downstream: Subscriber> =
    CombiningSubscription<ZipState<Slots>, Downstream> where Downstream.Input == Slots.Output

/// An upstream's unpaired values, oldest first.
///
/// The oldest is kept apart from the rest: a zip whose upstreams keep pace holds one value at a
/// time, which then costs no ring-buffer arithmetic.
@usableFromInline
package struct ZipSlot<Value>: CombiningSlot {
    @usableFromInline package var oldest: Value?
    /// The values after ``oldest``; empty whenever `oldest` is `nil`.
    @usableFromInline package var rest = RingBuffer<Value>()

    @inlinable
    package init() {}

    @inlinable
    package mutating func put(_ value: Value) {
        if oldest == nil {
            oldest = value
        } else {
            rest.append(value)
        }
    }

    /// Removes and returns the oldest value.
    @inlinable
    package mutating func emit() -> Value {
        let value = oldest.take()!
        if !rest.isEmpty { oldest = rest.popFirst() }
        return value
    }
}
