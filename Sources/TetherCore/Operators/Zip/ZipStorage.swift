/// The subscription of every zip publisher: the shared storage over ``ZipMachine``.
@usableFromInline
internal typealias ZipStorage<Slots: CombiningSlots, Downstream: Subscriber> =
    CombiningStorage<ZipMachine<Slots>, Downstream> where Downstream.Input == Slots.Output

/// An upstream's unpaired values, oldest first.
///
/// The oldest is kept apart from the rest: a zip whose upstreams keep pace holds one value at a
/// time, which then costs no ring-buffer arithmetic.
@usableFromInline
internal struct ZipSlot<Value>: CombiningSlot {
    @usableFromInline var oldest: Value?
    /// The values after ``oldest``; empty whenever `oldest` is `nil`.
    @usableFromInline var rest = RingBuffer<Value>()

    @inlinable
    init() {}

    @inlinable
    mutating func put(_ value: Value) {
        if oldest == nil {
            oldest = value
        } else {
            rest.append(value)
        }
    }

    /// Removes and returns the oldest value.
    @inlinable
    mutating func emit() -> Value {
        let value = oldest.take()!
        if !rest.isEmpty { oldest = rest.popFirst() }
        return value
    }
}
