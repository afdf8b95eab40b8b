extension Publisher {
    /// Combines elements from this publisher with those from seven other publishers, delivering
    /// an interleaved sequence of elements.
    ///
    /// Values go downstream in the order they arrive, one at a time, even when the upstreams send
    /// from different threads. The merged publisher finishes when every upstream has finished,
    /// and fails as soon as any fails, cancelling the others.
    /// - Parameters:
    ///   - b: A second publisher.
    ///   - c: A third publisher.
    ///   - d: A fourth publisher.
    ///   - e: A fifth publisher.
    ///   - f: A sixth publisher.
    ///   - g: A seventh publisher.
    ///   - h: A eighth publisher.
    /// - Returns: A publisher that emits an event when any upstream publisher emits an event.
    @inlinable
    public consuming func merge<
        B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
    >(
        with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
    ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where
        B.Failure == Failure, B.Output == Output,
        C.Failure == Failure, C.Output == Output,
        D.Failure == Failure, D.Output == Output,
        E.Failure == Failure, E.Output == Output,
        F.Failure == Failure, F.Output == Output,
        G.Failure == Failure, G.Output == Output,
        H.Failure == Failure, H.Output == Output
    {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to eight upstream publishers.
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
    public struct Merge8<A, B, C, D, E, F, G, H>: Publisher
    where
        A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        E: Publisher, F: Publisher, G: Publisher, H: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        B.Failure == C.Failure, B.Output == C.Output,
        C.Failure == D.Failure, C.Output == D.Output,
        D.Failure == E.Failure, D.Output == E.Output,
        E.Failure == F.Failure, E.Output == F.Output,
        F.Failure == G.Failure, F.Output == G.Output,
        G.Failure == H.Failure, G.Output == H.Output
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

        /// A fourth publisher to merge.
        public let d: D

        /// A fifth publisher to merge.
        public let e: E

        /// A sixth publisher to merge.
        public let f: F

        /// A seventh publisher to merge.
        public let g: G

        /// A eighth publisher to merge.
        public let h: H

        /// Creates a publisher created by applying the merge function to eight upstream publishers.
        /// - Parameters:
        ///   - a: A publisher to merge.
        ///   - b: A second publisher to merge.
        ///   - c: A third publisher to merge.
        ///   - d: A fourth publisher to merge.
        ///   - e: A fifth publisher to merge.
        ///   - f: A sixth publisher to merge.
        ///   - g: A seventh publisher to merge.
        ///   - h: A eighth publisher to merge.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        /// Attaches `subscriber`, then subscribes to the upstreams in order.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let storage = MergeSubscription(downstream: subscriber, upstreams: 8)
            storage.start()
            storage.subscribe(a, at: 0)
            storage.subscribe(b, at: 1)
            storage.subscribe(c, at: 2)
            storage.subscribe(d, at: 3)
            storage.subscribe(e, at: 4)
            storage.subscribe(f, at: 5)
            storage.subscribe(g, at: 6)
            storage.subscribe(h, at: 7)
        }
    }
}

extension Publishers.Merge8: Equatable
where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}

extension Publishers.Merge8: Sendable
where A: Sendable, B: Sendable, C: Sendable, D: Sendable, E: Sendable, F: Sendable, G: Sendable, H: Sendable {}
