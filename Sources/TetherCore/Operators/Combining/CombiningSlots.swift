/// One upstream's share of a zip's or combine-latest's values, typed: ``ZipSlot`` queues every
/// value, ``LatestSlot`` keeps the latest.
///
/// The machines count and decide; the slots only hold. So no value is erased to `Any` on its way
/// through, and assembling an output is a plain read of each slot: no cast, no array.
@usableFromInline
package protocol CombiningSlot {
    associatedtype Value

    init()

    /// Keeps a value from the upstream.
    mutating func put(_ value: Value)

    /// The upstream's value for the next output. Called only when the machine has counted a value
    /// in the slot.
    mutating func emit() -> Value
}

/// What a zip or combine-latest holds for all its upstreams: one ``CombiningSlot`` per upstream,
/// in order. ``CombiningSlots2`` … ``CombiningSlots4`` serve the fixed arities (a tuple out),
/// ``CombiningSlotArray`` the collection forms (an array out).
@usableFromInline
package protocol CombiningSlots {
    associatedtype Output

    init(upstreams: Int)

    /// One value of each slot, in order, as the output. Called only when every slot holds one.
    mutating func emit() -> Output

    /// Lets go of every value held.
    mutating func removeAll()
}

@usableFromInline
package struct CombiningSlots2<A: CombiningSlot, B: CombiningSlot>: CombiningSlots {
    @usableFromInline package var a = A()
    @usableFromInline package var b = B()

    @inlinable
    package init(upstreams: Int) {}

    @inlinable
    package mutating func emit() -> (A.Value, B.Value) {
        (a.emit(), b.emit())
    }

    @inlinable
    package mutating func removeAll() {
        self = Self(upstreams: 2)
    }
}

@usableFromInline
package struct CombiningSlots3<A: CombiningSlot, B: CombiningSlot, C: CombiningSlot>: CombiningSlots {
    @usableFromInline package var a = A()
    @usableFromInline package var b = B()
    @usableFromInline package var c = C()

    @inlinable
    package init(upstreams: Int) {}

    @inlinable
    package mutating func emit() -> (A.Value, B.Value, C.Value) {
        (a.emit(), b.emit(), c.emit())
    }

    @inlinable
    package mutating func removeAll() {
        self = Self(upstreams: 3)
    }
}

@usableFromInline
package struct CombiningSlots4<A: CombiningSlot, B: CombiningSlot, C: CombiningSlot, D: CombiningSlot>:
    CombiningSlots
{
    @usableFromInline package var a = A()
    @usableFromInline package var b = B()
    @usableFromInline package var c = C()
    @usableFromInline package var d = D()

    @inlinable
    package init(upstreams: Int) {}

    @inlinable
    package mutating func emit() -> (A.Value, B.Value, C.Value, D.Value) {
        (a.emit(), b.emit(), c.emit(), d.emit())
    }

    @inlinable
    package mutating func removeAll() {
        self = Self(upstreams: 4)
    }
}

/// The slots of a zip or combine-latest over a collection of publishers of one output type.
@usableFromInline
package struct CombiningSlotArray<Slot: CombiningSlot>: CombiningSlots {
    @usableFromInline package var slots: [Slot]

    @inlinable
    package init(upstreams: Int) {
        slots = Array(repeating: Slot(), count: upstreams)
    }

    @inlinable
    package mutating func emit() -> [Slot.Value] {
        var output: [Slot.Value] = []
        output.reserveCapacity(slots.count)
        for index in slots.indices {
            output.append(slots[index].emit())
        }
        return output
    }

    @inlinable
    package mutating func removeAll() {
        self = Self(upstreams: slots.count)
    }
}
