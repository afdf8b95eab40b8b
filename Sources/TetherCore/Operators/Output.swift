extension Publishers {
    /// A publisher that publishes elements specified by a range in the sequence of published
    /// elements.
    ///
    /// Elements before the range are dropped, each replaced by a demand of one towards the
    /// upstream; elements in the range are delivered, and the demand the subscriber returns for
    /// them goes back. The subscriber's requests pass through unchanged, as in Combine. After
    /// the last element of the range it cancels the upstream and finishes; an empty range
    /// finishes as soon as the subscriber has its subscription. Failures pass through as
    /// `Upstream.Failure`. Signals go out on the thread that delivers the upstream's signal.
    ///
    /// As in Combine, values are counted against the range and delivered whenever they come,
    /// even before the upstream's subscription or after the end; a completion, a request or a
    /// `cancel` that comes before the upstream's subscription is ignored, and so is a completion
    /// after the end. A second subscription from the upstream is cancelled.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives its elements.
        public let upstream: Upstream

        /// The range of elements to publish.
        public let range: CountableRange<Int>

        /// Creates a publisher that publishes elements specified by a range.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives its elements.
        ///   - range: The range of elements to publish; its lower bound must not be negative.
        @inlinable
        public init(upstream: Upstream, range: CountableRange<Int>) {
            precondition(range.lowerBound >= 0, "Publishers.Output needs a range of non-negative indexes, got \(range)")
            self.upstream = upstream
            self.range = range
        }

        /// Attaches `subscriber` through a subscription described as "Output".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }
    }
}

extension Publishers.Output {
    /// The operator's own subscription. Who ends the stream is decided under `link`; the
    /// counts of elements before and in the range belong to the upstream's serial signal path,
    /// so a value takes no lock, as in Combine.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline typealias Input = Upstream.Output

        @usableFromInline let link = UpstreamLink()
        /// Held for the subscription's whole life, as Combine holds it.
        @usableFromInline let downstream: Downstream
        /// Serial path only: the elements still to drop before the range.
        @usableFromInline @exclusivity(unchecked) var untilStart: Int
        /// Serial path only: the elements the range still holds.
        @usableFromInline @exclusivity(unchecked) var remaining: Int
        @usableFromInline let isEmptyRange: Bool

        @inlinable
        init(downstream: Downstream, range: CountableRange<Int>) {
            self.downstream = downstream
            untilStart = range.lowerBound
            remaining = range.count
            isEmptyRange = range.isEmpty
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            guard link.attach(subscription) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
            if isEmptyRange { finish() }
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if untilStart > 0 {
                untilStart -= 1
                return .max(1)
            }
            guard remaining > 0 else { return .none }
            remaining -= 1
            let demand = downstream.receive(input)
            if remaining == 0 { finish() }
            return demand
        }

        /// Cancels the upstream and finishes, unless the stream has ended or not yet begun.
        @inlinable
        func finish() {
            guard let upstream = link.endIfSubscribed() else { return }
            upstream.cancel()
            downstream.receive(completion: .finished)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if link.endIfSubscribed() != nil { downstream.receive(completion: completion) }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Output was asked for .none")
            link.upstream?.request(demand)
        }

        @inlinable
        func cancel() {
            link.endIfSubscribed()?.cancel()
        }

        @usableFromInline var description: String { "Output" }
        @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

extension Publishers.Output: Sendable where Upstream: Sendable {}

extension Publisher {
    /// Publishes a specific element, indicated by its index in the sequence of published
    /// elements.
    ///
    /// Elements before the index are dropped, each replaced by a demand of one; once the element
    /// is delivered, the upstream is cancelled and the publisher finishes. If the upstream
    /// completes first, so does the publisher, without a value.
    /// - Parameter index: The index that indicates the element to publish.
    /// - Returns: A publisher that publishes a specific indexed element.
    @inlinable
    public consuming func output(at index: Int) -> Publishers.Output<Self> {
        Publishers.Output(upstream: self, range: index..<(index + 1))
    }

    /// Publishes elements specified by their range in the sequence of published elements.
    ///
    /// Requests pass through unchanged; each element dropped before the range is replaced by a
    /// demand of one. After the last element of the range the upstream is cancelled and the
    /// publisher finishes.
    /// - Parameter range: A range that indicates which elements to publish.
    /// - Returns: A publisher that publishes elements specified by a range.
    @inlinable
    public consuming func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self> where R.Bound == Int {
        Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
    }

    /// Republishes elements up to the specified maximum count.
    ///
    /// Requests pass through unchanged; after the last element the upstream is cancelled and the
    /// publisher finishes.
    /// - Parameter maxLength: The maximum number of elements to republish.
    /// - Returns: A publisher that publishes up to the specified number of elements.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        output(in: ..<maxLength)
    }
}

extension Publishers.Sequence {
    /// Keeps, right away, at most `maxLength` elements of the sequence.
    /// - Parameter maxLength: The maximum number of elements to publish.
    /// - Returns: A sequence publisher of the prefix, with the same failure type.
    @inlinable
    public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
        Publishers.Sequence(sequence: sequence.prefix(maxLength))
    }
}

extension Just {
    /// Publishes the output if `maxLength` is positive, decided right away.
    /// - Parameter maxLength: The maximum number of elements to publish.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func prefix(_ maxLength: Int) -> Optional<Output>.Publisher {
        precondition(maxLength >= 0, "prefix(_:) needs a non-negative length, got \(maxLength)")
        return Optional<Output>.Publisher(maxLength > 0 ? output : nil)
    }

    /// Publishes the output if `index` is zero, decided right away.
    /// - Parameter index: The index that indicates the element to publish.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func output(at index: Int) -> Optional<Output>.Publisher {
        precondition(index >= 0, "output(at:) needs a non-negative index, got \(index)")
        return Optional<Output>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the output if `range` starts at index zero, decided right away.
    ///
    /// As in Combine, an empty range that starts at zero (`0..<0`) still publishes the output,
    /// and a range that starts below zero publishes nothing rather than trapping.
    /// - Parameter range: A range that indicates which elements to publish.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Output>.Publisher where R.Bound == Int {
        Optional<Output>.Publisher(range.relative(to: 0..<Int.max).lowerBound == 0 ? output : nil)
    }
}

extension Optional.Publisher {
    /// Publishes the output, if any, when `index` is zero, decided right away.
    /// - Parameter index: The index that indicates the element to publish.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func output(at index: Int) -> Optional<Wrapped>.Publisher {
        precondition(index >= 0, "output(at:) needs a non-negative index, got \(index)")
        return Optional<Wrapped>.Publisher(index == 0 ? output : nil)
    }

    /// Publishes the output, if any, when `range` contains index zero, decided right away.
    ///
    /// Traps, as Combine does, when the range starts below zero or ends at `Int.max - 1` or
    /// later.
    /// - Parameter range: A range that indicates which elements to publish.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func output<R: RangeExpression>(in range: R) -> Optional<Wrapped>.Publisher where R.Bound == Int {
        let indexes = range.relative(to: 0..<Int.max)
        precondition(indexes.lowerBound >= 0, "output(in:) needs a range of non-negative indexes, got \(indexes)")
        precondition(indexes.upperBound < Int.max - 1, "output(in:) needs a range that ends before Int.max - 1")
        return Optional<Wrapped>.Publisher(indexes.contains(0) ? output : nil)
    }
}
