extension Publishers {
    /// A publisher that emits a Boolean value when it receives a specific element from its
    /// upstream publisher.
    ///
    /// The publisher asks the upstream for `.unlimited` as soon as it is subscribed, before the
    /// subscriber requests anything. The first element equal to `output` cancels the upstream and
    /// publishes `true`; if the upstream finishes first, it publishes `false`. Either way the value
    /// waits for the first request if it has not come yet, then the publisher finishes. Upstream
    /// failures pass through as `Upstream.Failure`.
    public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
        /// The kind of values published by this publisher: whether the element was seen.
        public typealias Output = Bool

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The element to scan for in the upstream publisher.
        public let output: Upstream.Output

        /// Creates a publisher that emits a Boolean value when it receives a specific element
        /// from its upstream publisher.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - output: The element to scan for in the upstream publisher.
        @inlinable
        public init(upstream: Upstream, output: Upstream.Output) {
            self.upstream = upstream
            self.output = output
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "Contains".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Bool, S.Failure == Failure {
            let output = self.output
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "Contains", downstream: subscriber, initial: false, failure: { $0 }
                ) { found, input in
                    guard input == output else { return .more }
                    found = true
                    return .settled
                })
        }
    }
}

extension Publishers.Contains: Equatable where Upstream: Equatable {}

extension Publisher where Output: Equatable {
    /// Publishes a Boolean value upon receiving an element equal to the argument.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes; a match
    /// cancels the upstream.
    /// - Parameter output: An element to match against.
    /// - Returns: A publisher that emits the Boolean value `true` when the upstream publisher
    ///   emits a matching value.
    @inlinable
    public consuming func contains(_ output: Output) -> Publishers.Contains<Self> {
        Publishers.Contains(upstream: self, output: output)
    }
}
