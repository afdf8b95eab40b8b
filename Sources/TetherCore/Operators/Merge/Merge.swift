extension Publisher {
    /// Combines elements from this publisher with those from another publisher, delivering an
    /// interleaved sequence of elements.
    ///
    /// Values go downstream in the order they arrive, one at a time, even when the upstreams send
    /// from different threads. The merged publisher finishes when both upstreams have finished,
    /// and fails as soon as either fails, cancelling the other.
    /// - Parameter other: Another publisher.
    /// - Returns: A publisher that emits an event when either upstream publisher emits an event.
    @inlinable
    public consuming func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
    where P.Failure == Failure, P.Output == Output {
        Publishers.Merge(self, other)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to two upstream publishers.
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
    public struct Merge<A, B>: Publisher
    where
        A: Publisher, B: Publisher,
        A.Failure == B.Failure, A.Output == B.Output
    {
        /// The kind of values published by this publisher.
        public typealias Output = A.Output

        /// The kind of errors this publisher might publish.
        public typealias Failure = A.Failure

        /// A publisher to merge.
        public let a: A

        /// A second publisher to merge.
        public let b: B

        /// Creates a publisher created by applying the merge function to two upstream publishers.
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches `subscriber`, then subscribes to the upstreams in order.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeSubscription(downstream: subscriber, upstreams: 2)
            storage.start()
            storage.subscribe(a, at: 0)
            storage.subscribe(b, at: 1)
        }

        /// Merges one more publisher into this one: the result is a single `Merge3`.
        /// - Parameter z: Another publisher.
        /// - Returns: One merge of all three upstreams.
        @inlinable
        public func merge<Z: Publisher>(
            with z: Z
        ) -> Publishers.Merge3<A, B, Z>
        where Z.Failure == Failure, Z.Output == Output {
            Publishers.Merge3(a, b, z)
        }

        /// Merges two more publishers into this one: the result is a single `Merge4`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        /// - Returns: One merge of all four upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher>(
            with z: Z, _ y: Y
        ) -> Publishers.Merge4<A, B, Z, Y>
        where Z.Failure == Failure, Z.Output == Output, Y.Failure == Failure, Y.Output == Output {
            Publishers.Merge4(a, b, z, y)
        }

        /// Merges three more publishers into this one: the result is a single `Merge5`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        /// - Returns: One merge of all five upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher>(
            with z: Z, _ y: Y, _ x: X
        ) -> Publishers.Merge5<A, B, Z, Y, X>
        where
            Z.Failure == Failure, Z.Output == Output,
            Y.Failure == Failure, Y.Output == Output,
            X.Failure == Failure, X.Output == Output
        {
            Publishers.Merge5(a, b, z, y, x)
        }

        /// Merges four more publishers into this one: the result is a single `Merge6`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        /// - Returns: One merge of all six upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W
        ) -> Publishers.Merge6<A, B, Z, Y, X, W>
        where
            Z.Failure == Failure, Z.Output == Output,
            Y.Failure == Failure, Y.Output == Output,
            X.Failure == Failure, X.Output == Output,
            W.Failure == Failure, W.Output == Output
        {
            Publishers.Merge6(a, b, z, y, x, w)
        }

        /// Merges five more publishers into this one: the result is a single `Merge7`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        ///   - v: And another publisher.
        /// - Returns: One merge of all seven upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V
        ) -> Publishers.Merge7<A, B, Z, Y, X, W, V>
        where
            Z.Failure == Failure, Z.Output == Output,
            Y.Failure == Failure, Y.Output == Output,
            X.Failure == Failure, X.Output == Output,
            W.Failure == Failure, W.Output == Output,
            V.Failure == Failure, V.Output == Output
        {
            Publishers.Merge7(a, b, z, y, x, w, v)
        }

        /// Merges six more publishers into this one: the result is a single `Merge8`.
        /// - Parameters:
        ///   - z: Another publisher.
        ///   - y: And another publisher.
        ///   - x: And another publisher.
        ///   - w: And another publisher.
        ///   - v: And another publisher.
        ///   - u: And another publisher.
        /// - Returns: One merge of all eight upstreams.
        @inlinable
        public func merge<Z: Publisher, Y: Publisher, X: Publisher, W: Publisher, V: Publisher, U: Publisher>(
            with z: Z, _ y: Y, _ x: X, _ w: W, _ v: V, _ u: U
        ) -> Publishers.Merge8<A, B, Z, Y, X, W, V, U>
        where
            Z.Failure == Failure, Z.Output == Output,
            Y.Failure == Failure, Y.Output == Output,
            X.Failure == Failure, X.Output == Output,
            W.Failure == Failure, W.Output == Output,
            V.Failure == Failure, V.Output == Output,
            U.Failure == Failure, U.Output == Output
        {
            Publishers.Merge8(a, b, z, y, x, w, v, u)
        }
    }
}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}

extension Publishers.Merge: Sendable where A: Sendable, B: Sendable {}
