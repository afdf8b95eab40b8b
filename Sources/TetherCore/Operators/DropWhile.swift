extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns
    /// false.
    ///
    /// Each omitted element is replaced by a demand of one towards the upstream; other demand
    /// passes through unchanged. Once the closure returns `false` it is not called again, and every
    /// later element is republished. Failures pass through as `Upstream.Failure`. The closure runs
    /// on the thread that delivers the upstream value. Completion or cancellation releases the
    /// closure; the subscription keeps its subscriber, as Combine's does, until the subscriber lets
    /// the subscription go.
    ///
    /// As in Combine, a value (answered with `.none`), a completion, a request or a `cancel` that
    /// comes before the upstream's subscription is ignored.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) -> Bool

        /// Creates a publisher that omits elements from an upstream publisher until a given
        /// closure returns false.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The closure that indicates whether to drop the element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "DropWhile".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // The step runs only on the upstream's serial path, so the flag needs no lock.
            let dropping = SerialVariable(true)
            upstream.subscribe(
                VerdictSubscription<Output, Failure, S>(name: "DropWhile", downstream: subscriber) {
                    value in
                    if dropping.value, predicate(value) { return .skipAndReplace }
                    dropping.value = false
                    return .pass
                })
        }
    }
}

extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before
    /// republishing all remaining elements.
    ///
    /// Each omitted element is replaced by a demand of one towards the upstream.
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a
    ///   Boolean value indicating whether to drop the element from the publisher's output.
    /// - Returns: A publisher that skips over elements until the provided closure returns
    ///   `false`.
    @inlinable
    public consuming func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}

extension Just {
    /// Tests the output right away and publishes it only if the closure returns `false`.
    /// - Parameter predicate: A closure that returns whether to drop the output.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func drop(while predicate: (Output) -> Bool) -> Optional<Output>.Publisher {
        Optional<Output>.Publisher(predicate(output) ? nil : output)
    }
}

extension Optional.Publisher {
    /// Tests the output, if any, right away and publishes it only if the closure returns
    /// `false`.
    /// - Parameter predicate: A closure that returns whether to drop the output.
    /// - Returns: An `Optional.Publisher` of the output, or of `nil`.
    @inlinable
    public func drop(while predicate: (Wrapped) -> Bool) -> Optional<Wrapped>.Publisher {
        Optional<Wrapped>.Publisher(output.flatMap { predicate($0) ? nil : $0 })
    }
}
