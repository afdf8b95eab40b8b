/// The subscription of every zip publisher: the shared storage over ``ZipState``.
@usableFromInline
package typealias ZipSubscription<Slots: CombiningSlots, Downstream: Subscriber> =
    CombiningSubscription<ZipState<Slots>, Downstream> where Downstream.Input == Slots.Output

/// An upstream's unpaired values, oldest first; the oldest is kept in a `Held`, the optional of
/// the value (`ZipSlot<A.Output?>`): see ``OptionalType``.
///
/// The oldest is kept apart from the rest: a zip whose upstreams keep pace holds one value at a
/// time, which then costs no ring-buffer arithmetic.
@usableFromInline
package struct ZipSlot<Held: OptionalType>: CombiningSlot {
    @usableFromInline package typealias Value = Held.Wrapped

    @usableFromInline package var oldest = Held.none
    /// The values after ``oldest``; empty whenever `oldest` is none.
    @usableFromInline package var rest = RingBuffer<Value>()

    @inlinable
    package init() {}

    @inlinable
    package mutating func put(_ value: Value) {
        if oldest.isNone {
            oldest = Held(value)
        } else {
            rest.append(value)
        }
    }

    /// Removes and returns the oldest value.
    @inlinable
    package mutating func emit() -> Value {
        let value = oldest.takeWrapped()
        if !rest.isEmpty { promoteNext() }
        return value
    }

    /// The next value becomes the oldest. Out of line: the ring keeps its values as optionals
    /// built from `Value`, and inlined where it runs unspecialised, taking one out would look that
    /// type up on every ``emit()``, which a zip of one value at a time does not pay for.
    @inlinable
    @inline(never)
    package mutating func promoteNext() {
        oldest = Held(rest.removeFirst())
    }
}
