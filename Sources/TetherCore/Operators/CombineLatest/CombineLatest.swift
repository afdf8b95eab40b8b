extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from
    /// either publisher.
    ///
    /// Nothing is published until every publisher has produced a value; after that, every new
    /// value publishes the latest value of each. Demand is forwarded to every upstream; the
    /// result finishes when all upstreams finish and fails with the first failure.
    /// - Parameter other: Another publisher to combine with this one.
    /// - Returns: A publisher that receives and combines elements from this and another publisher.
    @inlinable
    public consuming func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Subscribes to an additional publisher and invokes a closure upon receiving output from
    /// either publisher.
    ///
    /// Nothing is published until every publisher has produced a value; after that, every new
    /// value publishes the latest value of each. Demand is forwarded to every upstream; the
    /// result finishes when all upstreams finish and fails with the first failure.
    /// - Parameters:
    ///   - other: Another publisher to combine with this one.
    ///   - transform: A closure that receives the most-recent value from each publisher and returns
    ///     a new value to publish.
    /// - Returns: A publisher that receives and combines elements from this and another publisher,
    ///   transformed by `transform`.
    @inlinable
    public consuming func combineLatest<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
    where P.Failure == Failure {
        let combined = Publishers.CombineLatest(self, other)
        return Publishers.Map(upstream: combined) { transform($0.0, $0.1) }
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from two publishers.
    ///
    /// Once every upstream has produced a value, it publishes a tuple of the latest value of each
    /// whenever any of them produces a new one. Each request from the downstream is forwarded to
    /// every upstream. A new combination that finds no demand is dropped, as Combine drops it:
    /// its values stay the latest, and demand that arrives later waits for the next new value.
    /// Values are delivered one at a time on the thread of the upstream that sent them, never
    /// overlapping. A value an upstream sends from inside the downstream's `receive(_:)`, on
    /// that thread, becomes its latest and makes no combination, as in Combine, so a subscriber
    /// feeding an upstream back does not loop. It finishes when every upstream has finished, and fails with the first
    /// failure, cancelling the other upstreams. It holds its subscriber for its whole life, as
    /// Combine's does. `request(.none)` traps, as in Combine. A value or completion that an
    /// upstream sends before its subscription counts as if sent after it; a subscription handed
    /// over after that upstream completed is cancelled.
    public struct CombineLatest<A, B>: Publisher
    where A: Publisher, B: Publisher, A.Failure == B.Failure {
        /// The kind of values published by this publisher: one value of each upstream.
        public typealias Output = (A.Output, B.Output)

        /// The kind of errors this publisher might publish.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A

        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher that receives and combines the latest elements from two publishers.
        /// - Parameters:
        ///   - a: The first upstream publisher.
        ///   - b: The second upstream publisher.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`, then subscribes to the upstreams in order.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = CombiningSlots2<LatestSlot<A.Output?>, LatestSlot<B.Output?>>
            let storage = CombineLatestSubscription<Slots, S>(downstream: subscriber, upstreams: 2)
            storage.start()
            storage.subscribe(a, at: 0) { $0.a.put($1) }
            storage.subscribe(b, at: 1) { $0.b.put($1) }
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}

extension Publishers.CombineLatest: Sendable where A: Sendable, B: Sendable {}
