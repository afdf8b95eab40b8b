/// The subscription of every combine-latest publisher: the shared storage over
/// ``CombineLatestState``.
@usableFromInline
package typealias CombineLatestSubscription<Slots: CombiningSlots, Downstream: Subscriber> =
    CombiningSubscription<CombineLatestState<Slots>, Downstream> where Downstream.Input == Slots.Output

/// An upstream's latest value.
@usableFromInline
package struct LatestSlot<Value>: CombiningSlot {
    @usableFromInline package var latest: Value?

    @inlinable
    package init() {}

    /// Replaces the latest value.
    @inlinable
    package mutating func put(_ value: Value) {
        latest = value
    }

    /// The latest value, which stays for later combinations.
    @inlinable
    package mutating func emit() -> Value {
        latest!
    }
}
