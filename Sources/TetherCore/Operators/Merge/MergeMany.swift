extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the same type,
    /// delivering an interleaved sequence of elements.
    ///
    /// Values go downstream in the order they arrive, one at a time, even when the upstreams send
    /// from different threads. The merged publisher finishes when both upstreams have finished,
    /// and fails as soon as either fails, cancelling the other.
    /// - Parameter other: Another publisher of this publisher's type.
    /// - Returns: A publisher that emits an event when either upstream publisher emits an event.
    @inlinable
    public consuming func merge(with other: Self) -> Publishers.MergeMany<Self> {
        Publishers.MergeMany(self, other)
    }
}

extension Publishers {
    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers.
    ///
    /// While the downstream's demand is finite, each upstream is asked for one value at a time and
    /// asked again as its value goes downstream (a value sent beyond that, while the upstream's
    /// earlier one waits for demand, replaces the waiting one, as in Combine); once the downstream
    /// asks for `.unlimited`, so is every upstream. Values are delivered one at a time on the
    /// thread of the upstream that sent them (or of the request that released them), never
    /// overlapping. The publisher finishes when every upstream has finished (at once, when there
    /// are none) and fails with the first failure, cancelling every upstream (the failed one too,
    /// as Combine does). It holds its subscriber for its whole life, as Combine's does.
    /// `request(.none)` is ignored, as in Combine. A value or completion that an upstream sends
    /// before its subscription counts as if sent after it; a subscription handed over after that
    /// upstream completed is cancelled.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish.
        public typealias Failure = Upstream.Failure

        /// The array of upstream publishers that this publisher merges together.
        public let publishers: [Upstream]

        /// Creates a publisher created by applying the merge function to an arbitrary number of
        /// upstream publishers.
        /// - Parameter upstream: A variadic parameter containing zero or more publishers to merge
        ///   with this publisher.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher created by applying the merge function to a sequence of upstream
        /// publishers.
        /// - Parameter upstream: A sequence containing zero or more publishers to merge with this
        ///   publisher.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where S.Element == Upstream {
            publishers = Array(upstream)
        }

        /// Attaches `subscriber`, then subscribes to the upstreams in order.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            guard !publishers.isEmpty else {
                // Nothing to wait for: a merge of no publishers has finished already.
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            let storage = MergeSubscription(downstream: subscriber, upstreams: publishers.count)
            storage.start()
            for (index, publisher) in publishers.enumerated() {
                storage.subscribe(publisher, at: index)
            }
        }

        /// Combines elements from this publisher with those from another publisher of the same
        /// type, delivering an interleaved sequence of elements.
        /// - Parameter other: Another publisher of this publisher's upstream type.
        /// - Returns: One `MergeMany` over this publisher's upstreams followed by `other`.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

extension Publishers.MergeMany: Sendable where Upstream: Sendable {}
