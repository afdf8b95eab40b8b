extension CombiningStorage {
    /// Attaches `subscriber` to every publisher of a collection, each array of values assembled by
    /// this storage's machine (the latest of each, or the oldest unpaired of each); with no
    /// publishers, it finishes at once. The body of `combineLatest()` and `zip()` over a
    /// collection.
    @inlinable
    internal static func attach<Upstream: Publisher>(_ subscriber: Downstream, to publishers: [Upstream])
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        guard !publishers.isEmpty else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        let storage = CombiningStorage(downstream: subscriber, upstreams: publishers.count) { values in
            values.map { $0 as! Upstream.Output }
        }
        storage.start()
        for (index, publisher) in publishers.enumerated() {
            storage.subscribe(publisher, at: index)
        }
    }
}
