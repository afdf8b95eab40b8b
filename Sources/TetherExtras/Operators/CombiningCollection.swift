import TetherCore

extension CombiningSubscription {
    /// Attaches `subscriber` to every publisher of a collection, each upstream's values held in
    /// its slot of the array (the latest of each, or the oldest unpaired of each); with no
    /// publishers, it finishes at once. The body of `combineLatest()` and `zip()` over a
    /// collection.
    @inlinable
    internal static func attach<Upstream: Publisher, Slot: CombiningSlot>(
        _ subscriber: Downstream, to publishers: [Upstream]
    )
    where
        Machine.Slots == CombiningSlotArray<Slot>, Slot.Value == Upstream.Output,
        Downstream.Failure == Upstream.Failure
    {
        guard !publishers.isEmpty else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        let storage = CombiningSubscription(downstream: subscriber, upstreams: publishers.count)
        storage.start()
        for (index, publisher) in publishers.enumerated() {
            storage.subscribe(publisher, at: index) { $0.slots[index].put($1) }
        }
    }
}
