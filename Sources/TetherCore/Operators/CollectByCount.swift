extension Publishers {
    /// A publisher that buffers a maximum number of items.
    ///
    /// When the subscriber requests `.max(n)` arrays, the publisher requests `.max(count * n)` from
    /// the upstream, and the demand returned for each full array is multiplied the same way. A full
    /// buffer goes out as one array; when the upstream finishes, a partial buffer goes out before
    /// `.finished`. An upstream failure drops the buffer and passes through as `Upstream.Failure`.
    /// Arrays go out on the thread that delivers the upstream's signals. Completion or cancellation
    /// releases the buffer; the subscription keeps its subscriber, as Combine's does, until the
    /// subscriber lets the subscription go.
    ///
    /// As in Combine, a value that arrives before the upstream's subscription is ignored
    /// (answered with `.none`), and a completion is passed on.
    public struct CollectByCount<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: up to `count` elements at a time.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of received elements to buffer before publishing.
        public let count: Int

        /// Creates a publisher that buffers a maximum number of items.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - count: The maximum number of received elements to buffer before publishing.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Attaches `subscriber` through a subscription described as "CollectByCount"; traps
        /// unless `count` is positive.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            precondition(count > 0, "collect(_:) needs a positive count, not \(count)")
            upstream.subscribe(Inner(downstream: subscriber, count: count))
        }
    }
}

extension Publishers.CollectByCount: Equatable where Upstream: Equatable {}

extension Publishers.CollectByCount {
    /// The subscription, on the subscription kernel (``UpstreamLink``): the buffer lives on the
    /// upstream's serial path, handed over through the link's `handOff`; whether the upstream is
    /// still attached is decided by its status.
    ///
    /// As Combine's, it passes every upstream completion on, even after a `cancel` or a first
    /// completion (only the buffer's rest is dropped then), ignores a `cancel` that comes before
    /// the subscription, and holds the downstream for its whole life.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == [Upstream.Output], Downstream.Failure == Upstream.Failure {
        @usableFromInline let link = UpstreamLink()
        @usableFromInline let count: Int
        /// Held for the whole life, as Combine holds it.
        @usableFromInline let downstream: Downstream
        /// Serial path only, or whichever side the hand-off names.
        @usableFromInline @exclusivity(unchecked) var buffer: [Upstream.Output] = []

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            self.count = count
            buffer.reserveCapacity(count)
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard link.accept(subscription) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            if link.handOff.leave() {
                release()
            }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard link.handOff.enterIfSubscribed() else { return .none }
            buffer.append(input)
            var demand = Subscribers.Demand.none
            if buffer.count == count {
                let full = buffer
                buffer = []
                buffer.reserveCapacity(count)
                demand = downstream.receive(full) * count
            }
            if link.handOff.leave() {
                release()
                return .none
            }
            return demand
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            _ = link.end(evenBeforeSubscription: true)
            // A stopped hand-off (a cancel or an earlier completion) has released the buffer.
            if link.handOff.enterEvenBeforeSubscription() {
                link.handOff.stopFromSerialPath()
                let rest = buffer
                release()
                if case .finished = completion, !rest.isEmpty {
                    _ = downstream.receive(rest)
                }
            }
            downstream.receive(completion: completion)
        }

        @inlinable
        func release() {
            buffer = []
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: CollectByCount was asked for .none")
            link.upstream?.request(demand * count)
        }

        @inlinable
        func cancel() {
            // Before the subscription there is nothing to cancel; Combine subscribes normally when
            // it arrives.
            guard let upstream = link.cancel(evenBeforeSubscription: false, release: { release() }) else { return }
            upstream.cancel()
        }

        @usableFromInline var description: String { "CollectByCount" }
        /// Combine's children. The buffer belongs to the serial path, which fills it without a
        /// lock, so the mirror shows it empty.
        @usableFromInline var customMirror: Mirror {
            let upstream = link.upstream
            let children: KeyValuePairs<String, Any> = [
                "downstream": downstream,
                "upstreamSubscription": upstream as Any,
                "buffer": [Upstream.Output](),
                "count": count,
            ]
            return Mirror(self, children: children)
        }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Collects up to the specified number of elements, and then emits a single array of the
    /// collection.
    ///
    /// If the upstream publisher finishes before collecting the specified number of elements,
    /// the publisher sends an array of only the items it received. If the upstream fails, the
    /// error is forwarded instead. When this publisher receives a request for `.max(n)`
    /// elements, it requests `.max(count * n)` from the upstream publisher.
    /// - Parameter count: The maximum number of received elements to buffer before publishing.
    /// - Returns: A publisher that collects up to the specified number of elements, and then
    ///   publishes them as an array.
    @inlinable
    public consuming func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
        Publishers.CollectByCount(upstream: self, count: count)
    }
}
