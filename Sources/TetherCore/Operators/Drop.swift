extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later
    /// elements.
    ///
    /// As in Combine, the subscriber gets the operator's own subscription before the upstream is
    /// subscribed to. What it requests before the upstream's subscription comes is gathered and
    /// asked for, with ``count`` more for the elements to omit, when it comes; later requests and
    /// returned demand pass through unchanged. Failures pass through as `Upstream.Failure`.
    /// Signals go out on the thread that delivers the upstream's signal.
    ///
    /// Values and completions always go through, as in Combine: one that comes before the
    /// upstream's subscription or after a completion is counted or delivered like any other. A
    /// completion or a `cancel` lets go of the upstream's subscription, after which requests are
    /// gathered again and a new subscription from the upstream is taken up; while one is held, a
    /// second is cancelled. A negative ``count`` traps when the upstream's subscription comes.
    public struct Drop<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that omits a specified number of elements before republishing
        /// later elements.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - count: The number of elements to drop; must not be negative.
        @inlinable
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Hands `subscriber` a subscription described as "Drop", then attaches it upstream.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.Drop {
    /// The operator's own subscription. The upstream's subscription and the requests gathered
    /// while there is none are under `link`; the count of elements still to omit belongs to the
    /// upstream's serial signal path, so a value takes no lock, as in Combine.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output

        @usableFromInline
        internal struct Link {
            /// `nil` before the subscription, and again after a completion or a `cancel`.
            @usableFromInline var upstream: (any Subscription)?
            /// Requested while there was no upstream subscription.
            @usableFromInline var gathered = Subscribers.Demand.none

            @inlinable
            init() {}
        }

        @usableFromInline let link = Locked(Link())
        /// Held for the subscription's whole life, as Combine holds it.
        @usableFromInline let downstream: Downstream
        /// Serial path only: the elements still to omit.
        @usableFromInline @exclusivity(unchecked) var remaining: Int

        @inlinable
        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            remaining = count
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            let remaining = self.remaining
            let demand = link.withLock { link -> Subscribers.Demand? in
                guard link.upstream == nil else { return nil }
                precondition(remaining >= 0, "Publishers.Drop needs a non-negative count, got \(remaining)")
                link.upstream = subscription
                defer { link.gathered = .none }
                return link.gathered + remaining
            }
            guard let demand else {
                subscription.cancel()
                return
            }
            if demand > 0 { subscription.request(demand) }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            guard remaining <= 0 else {
                remaining -= 1
                return .none
            }
            return downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            link.withLock { $0.upstream = nil }
            downstream.receive(completion: completion)
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Drop was asked for .none")
            let upstream = link.withLock { link -> (any Subscription)? in
                if link.upstream == nil { link.gathered += demand }
                return link.upstream
            }
            upstream?.request(demand)
        }

        @inlinable
        func cancel() {
            let upstream = link.withLock { link -> (any Subscription)? in
                defer { link.upstream = nil }
                return link.upstream
            }
            upstream?.cancel()
        }

        @usableFromInline var description: String { "Drop" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop: Sendable where Upstream: Sendable {}

extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// The subscriber's first request goes upstream with `count` more added; later demand passes
    /// through unchanged.
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: A publisher that doesn't republish the first `count` elements.
    @inlinable
    public consuming func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers.Sequence {
    /// Omits, right away, the first `count` elements of the sequence.
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: A sequence publisher of the remaining elements, with the same failure type.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Publishers.Sequence<DropFirstSequence<Elements>, Failure> {
        Publishers.Sequence(sequence: sequence.dropFirst(count))
    }
}

extension Just {
    /// Publishes the output only if `count` is zero, decided right away.
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func dropFirst(_ count: Int = 1) -> Optional<Output>.Publisher {
        precondition(count >= 0, "dropFirst(_:) needs a non-negative count, got \(count)")
        return Optional<Output>.Publisher(count > 0 ? nil : output)
    }
}
