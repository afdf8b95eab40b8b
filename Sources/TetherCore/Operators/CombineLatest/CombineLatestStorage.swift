/// The subscription of every combine-latest publisher: the shared storage over
/// ``CombineLatestMachine``.
@usableFromInline
internal typealias CombineLatestStorage<Slots: CombiningSlots, Downstream: Subscriber> =
    CombiningStorage<CombineLatestMachine<Slots>, Downstream> where Downstream.Input == Slots.Output

/// An upstream's latest value.
@usableFromInline
internal struct LatestSlot<Value>: CombiningSlot {
    @usableFromInline var latest: Value?

    @inlinable
    init() {}

    /// Replaces the latest value.
    @inlinable
    mutating func put(_ value: Value) {
        latest = value
    }

    /// The latest value, which stays for later combinations.
    @inlinable
    mutating func emit() -> Value {
        latest!
    }
}
