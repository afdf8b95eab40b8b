extension Publishers {
    /// A publisher that waits until after the stream finishes, and then publishes the last
    /// element of the stream.
    ///
    /// It asks its upstream for `.unlimited` as soon as it is subscribed, before the subscriber
    /// requests anything, and keeps the latest element. Once the upstream has finished and the
    /// subscriber has requested at least one element, it delivers the element and finishes; an
    /// empty stream finishes without a value. A failure is passed on at once, without demand,
    /// and the kept element is discarded. Failures pass through as `Upstream.Failure`. Signals go
    /// out on the thread that delivers the upstream's signal, or on the thread of the first
    /// request if it comes later.
    public struct Last<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that waits until after the stream finishes and then publishes the
        /// last element of the stream.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "Last".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Reducer<Output, Failure, S>(name: "Last", downstream: subscriber, initial: nil, failure: { $0 }) {
                    last, input in
                    last = input
                    return .more
                })
        }
    }
}

extension Publishers.Last: Equatable where Upstream: Equatable {}

extension Publishers.Last: Sendable where Upstream: Sendable {}

extension Publisher {
    /// Publishes the last element of a stream, after the stream finishes.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes. If the upstream finishes
    /// without elements, the publisher finishes without a value. Nothing goes down before the
    /// subscriber's first request.
    /// - Returns: A publisher that only publishes the last element of a stream.
    @inlinable
    public consuming func last() -> Publishers.Last<Self> {
        Publishers.Last(upstream: self)
    }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
    /// Takes the collection's last element right away and publishes it, or finishes without a
    /// value when the collection is empty.
    /// - Returns: An `Optional.Publisher` of the last element.
    @inlinable
    public func last() -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last)
    }

    /// Searches the collection from its end, right away and once, for the last element that
    /// satisfies `predicate`, and publishes it, or finishes without a value when none does.
    /// - Parameter predicate: The test for each element, tried from the last one backwards.
    /// - Returns: An `Optional.Publisher` of that element.
    @inlinable
    public func last(where predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(sequence.last(where: predicate))
    }
}
