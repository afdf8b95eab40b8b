extension Publisher {
    /// Combines elements from three other publishers and delivers groups of elements as tuples.
    ///
    /// The result waits until every publisher has emitted a value, then delivers the oldest
    /// unconsumed value of each together. Demand is forwarded to every upstream; the result
    /// finishes once an upstream has finished and no further tuple can be completed.
    /// - Parameters:
    ///   - publisher1: A second publisher.
    ///   - publisher2: A third publisher.
    ///   - publisher3: A fourth publisher.
    /// - Returns: A publisher that emits groups of elements from the upstream publishers as tuples.
    @inlinable
    public consuming func zip<P: Publisher, Q: Publisher, R: Publisher>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R
    ) -> Publishers.Zip4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.Zip4(self, publisher1, publisher2, publisher3)
    }

    /// Combines elements from three other publishers and delivers a transformed output.
    ///
    /// The result waits until every publisher has emitted a value, then delivers the oldest
    /// unconsumed value of each together. Demand is forwarded to every upstream; the result
    /// finishes once an upstream has finished and no further tuple can be completed.
    /// - Parameters:
    ///   - publisher1: A second publisher.
    ///   - publisher2: A third publisher.
    ///   - publisher3: A fourth publisher.
    ///   - transform: A closure that receives the oldest unconsumed value from each publisher and
    ///     returns a new value to publish.
    /// - Returns: A publisher that uses the `transform` closure to emit new elements, produced by
    ///   combining the values from four upstream publishers.
    @inlinable
    public consuming func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ publisher1: P, _ publisher2: Q, _ publisher3: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        let combined = Publishers.Zip4(self, publisher1, publisher2, publisher3)
        return Publishers.Map(upstream: combined) { transform($0.0, $0.1, $0.2, $0.3) }
    }
}

extension Publishers {
    /// A publisher created by applying the zip function to four upstream publishers.
    ///
    /// It waits until every upstream has emitted a value, then delivers the oldest unconsumed value
    /// of each together as a tuple. Each request from the downstream is forwarded to every
    /// upstream; unpaired values wait in order. Values are delivered one at a time on the thread of
    /// the upstream that completed the tuple (or of the request that released it), never
    /// overlapping. It finishes as soon as an upstream has finished with no unpaired value left,
    /// cancelling the others, and fails with the first failure, cancelling the others.
    /// `request(.none)` traps, as in Combine. A value or completion that an upstream sends before
    /// its subscription counts as if sent after it; a subscription handed over after that upstream
    /// completed is cancelled.
    public struct Zip4<A, B, C, D>: Publisher
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

        /// Creates a publisher that applies the zip function to four upstream publishers.
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
                ZipSlot<A.Output?>, ZipSlot<B.Output?>, ZipSlot<C.Output?>, ZipSlot<D.Output?>
            >
            let storage = ZipSubscription<Slots, S>(downstream: subscriber, upstreams: 4)
            storage.start()
            storage.subscribe(a, at: 0) { $0.a.put($1) }
            storage.subscribe(b, at: 1) { $0.b.put($1) }
            storage.subscribe(c, at: 2) { $0.c.put($1) }
            storage.subscribe(d, at: 3) { $0.d.put($1) }
        }
    }
}

extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publishers.Zip4: Sendable where A: Sendable, B: Sendable, C: Sendable, D: Sendable {}
