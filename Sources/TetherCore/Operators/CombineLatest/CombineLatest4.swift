extension Publisher {
    /// Subscribes to three additional publishers and publishes a tuple upon receiving output from
    /// any of the publishers.
    ///
    /// Nothing is published until every publisher has produced a value; after that, every new
    /// value publishes the latest value of each. Demand is forwarded to every upstream; the
    /// result finishes when all upstreams finish and fails with the first failure.
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    ///   - publisher3: A fourth publisher to combine with the first publisher.
    /// - Returns: A publisher that receives and combines elements from this and three other
    ///   publishers.
    @inlinable
    public consuming func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
    }

    /// Subscribes to three additional publishers and invokes a closure upon receiving output from
    /// any of the publishers.
    ///
    /// Nothing is published until every publisher has produced a value; after that, every new
    /// value publishes the latest value of each. Demand is forwarded to every upstream; the
    /// result finishes when all upstreams finish and fails with the first failure.
    /// - Parameters:
    ///   - publisher1: A second publisher to combine with the first publisher.
    ///   - publisher2: A third publisher to combine with the first publisher.
    ///   - publisher3: A fourth publisher to combine with the first publisher.
    ///   - transform: A closure that receives the most-recent value from each publisher and returns
    ///     a new value to publish.
    /// - Returns: A publisher that receives and combines elements from this and three other
    ///   publishers, transformed by `transform`.
    @inlinable
    public consuming func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        let combined = Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
        return Publishers.Map(upstream: combined) { transform($0.0, $0.1, $0.2, $0.3) }
    }
}

extension Publishers {
    /// A publisher that receives and combines the latest elements from four publishers.
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
    public struct CombineLatest4<A, B, C, D>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure
    {
        /// The kind of values published by this publisher: one value of each upstream.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)

        /// The kind of errors this publisher might publish.
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A

        /// The second upstream publisher.
        public let b: B

        /// The third upstream publisher.
        public let c: C

        /// The fourth upstream publisher.
        public let d: D

        /// Creates a publisher that receives and combines the latest elements from four publishers.
        /// - Parameters:
        ///   - a: The first upstream publisher.
        ///   - b: The second upstream publisher.
        ///   - c: The third upstream publisher.
        ///   - d: The fourth upstream publisher.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Attaches `subscriber`, then subscribes to the upstreams in order.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            typealias Slots = CombiningSlots4<
                LatestSlot<A.Output?>, LatestSlot<B.Output?>, LatestSlot<C.Output?>, LatestSlot<D.Output?>
            >
            let storage = CombineLatestSubscription<Slots, S>(downstream: subscriber, upstreams: 4)
            storage.start()
            storage.subscribe(a, at: 0) { $0.a.put($1) }
            storage.subscribe(b, at: 1) { $0.b.put($1) }
            storage.subscribe(c, at: 2) { $0.c.put($1) }
            storage.subscribe(d, at: 3) { $0.d.put($1) }
        }
    }
}

extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publishers.CombineLatest4: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable {}
