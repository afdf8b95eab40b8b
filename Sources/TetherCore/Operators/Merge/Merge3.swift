extension Publisher {
    /// Combines elements from this publisher with those from two other publishers, delivering
    /// an interleaved sequence of elements.
    ///
    /// Values go downstream in the order they arrive, one at a time, even when the upstreams send
    /// from different threads. The merged publisher finishes when every upstream has finished,
    /// and fails as soon as any fails, cancelling the others.
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public consuming func merge<B: Publisher, C: Publisher>(
        with b: B, _ c: C
    ) -> Publishers.Merge3<Self, B, C>
    where B.Failure == Failure, B.Output == Output, C.Failure == Failure, C.Output == Output {
        Publishers.Merge3(self, b, c)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to three upstream publishers.
    ///
    /// While the downstream's demand is finite, each upstream is asked for one value at a time and
    /// asked again as its value goes downstream (a value sent beyond that, while the upstream's
    /// earlier one waits for demand, replaces the waiting one, as in Combine); once the downstream
    /// asks for `.unlimited`, so is every upstream. Values are delivered one at a time on the
    /// thread of the upstream that sent them (or of the request that released them), never
    /// overlapping. The publisher finishes when every upstream has finished and fails with the
    /// first failure, cancelling every upstream (the failed one too, as Combine does). It holds its
    /// subscriber for its whole life, as Combine's does. `request(.none)` is ignored, as in
    /// Combine. A value or completion that an upstream sends before its subscription counts as if
    /// sent after it; a subscription handed over after that upstream completed is cancelled.
    public struct Merge3<A, B, C>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output
    {
        /// The kind of values published by this publisher.
        public typealias Output = A.Output

        /// The kind of errors this publisher might publish.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// A third publisher to merge.
        public let c: C

        /// Creates a publisher created by applying the merge function to three upstream publishers.
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        ///   - c: A third publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches `subscriber`, then subscribes to the upstreams in order.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeSubscription(downstream: subscriber, upstreams: 3)
            storage.start()
            storage.subscribe(a, at: 0)
            storage.subscribe(b, at: 1)
            storage.subscribe(c, at: 2)
        }

        /// Merges one more publisher into this one: the result is a single `Merge4`.
        /// - Parameter z: Another publisher.
        /// - Returns: One merge of all four upstreams.
        @inlinable
        public func merge<Z: Publisher>(
            with z: Z
        ) -> Publishers.Merge4<A, B, C, Z>
        where Z.Failure == Failure, Z.Output == Output {
            Publishers.Merge4(a, b, c, z)
        }

        /// Merges two more publishers into this one: the result is a single `Merge5`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        /// - Returns: One merge of all five upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher>(
            with z: Z, _ y: Y
        ) -> Publishers.Merge5<A, B, C, Z, Y>
        where Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output {
            Publishers.Merge5(a, b, c, z, y)
        }

        /// Merges three more publishers into this one: the result is a single `Merge6`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        /// - Returns: One merge of all six upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
            with z: Z, _ y: Y, _ x: X
        ) -> Publishers.Merge6<A, B, C, Z, Y, X>
        where
            Z.Failure == Failure, Z.Output == Output,
            Y.Failure == Failure, Y.Output == Output,
            X.Failure == Failure, X.Output == Output
        {
            Publishers.Merge6(a, b, c, z, y, x)
        }

        /// Merges four more publishers into this one: the result is a single `Merge7`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        /// - Returns: One merge of all seven upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        ) -> Publishers.Merge7<A, B, C, Z, Y, X, W>
        where
            Z.Failure == Failure, Z.Output == Output,
            Y.Failure == Failure, Y.Output == Output,
            X.Failure == Failure, X.Output == Output,
            W.Failure == Failure, W.Output == Output
        {
            Publishers.Merge7(a, b, c, z, y, x, w)
        }

        /// Merges five more publishers into this one: the result is a single `Merge8`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        ///   - v: And another publisher.
        /// - Returns: One merge of all eight upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
        ) -> Publishers.Merge8<A, B, C, Z, Y, X, W, V>
        where
            Z.Failure == Failure, Z.Output == Output,
            Y.Failure == Failure, Y.Output == Output,
            X.Failure == Failure, X.Output == Output,
            W.Failure == Failure, W.Output == Output,
            V.Failure == Failure, V.Output == Output
        {
            Publishers.Merge8(a, b, c, z, y, x, w, v)
        }
    }
}

extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}

extension Publishers.Merge3: Sendable where A: Sendable, B: Sendable, C: Sendable {}
