/// The subscription of every combine-latest publisher: the shared storage over
/// ``CombineLatestState``.
@usableFromInline
package typealias CombineLatestSubscription<Slots: CombiningSlots, Downstream: Subscriber> =
    CombiningSubscription<CombineLatestState<Slots>, Downstream> where Downstream.Input == Slots.Output

/// An upstream's latest value, kept in a `Held`, the optional of the value
/// (`LatestSlot<A.Output?>`): see ``OptionalType``.
@usableFromInline
package struct LatestSlot<Held: OptionalType>: CombiningSlot {
    @usableFromInline package typealias Value = Held.Wrapped

    @usableFromInline package var latest = Held.none

    @inlinable
    package init() {}

    /// Replaces the latest value.
    @inlinable
    package mutating func put(_ value: Value) {
        latest = Held(value)
    }

    /// The latest value, which stays for later combinations.
    @inlinable
    package mutating func emit() -> Value {
        latest.wrapped
    }
}
