extension Publishers {
    /// A publisher that buffers items.
    ///
    /// The publisher asks the upstream for `.unlimited` as soon as it is subscribed, before the
    /// subscriber requests anything. When the upstream finishes, it publishes every element
    /// received, in order, as one array (empty if there were none; waiting for the first request if
    /// it has not come yet), then finishes. Upstream failures pass through as `Upstream.Failure`
    /// and the buffer is dropped. The buffer grows without bound. The array goes out on the thread
    /// that delivers the upstream's completion (or that makes the first request).
    public struct Collect<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: all upstream elements, as an array.
        public typealias Output = [Upstream.Output]

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a publisher that buffers every element of the upstream publisher.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        @inlinable
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` through a `Reducer` subscription described as "Collect".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(
                Reducer<Upstream.Output, Upstream.Failure, S>(
                    name: "Collect", downstream: subscriber, initial: [], reflection: .collected, failure: { $0 }
                ) { buffer, input in
                    buffer?.append(input)
                    return .more
                })
        }
    }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

extension Publisher {
    /// Collects all received elements, and emits a single array of the collection when the
    /// upstream publisher finishes.
    ///
    /// Requests `.unlimited` from the upstream as soon as it subscribes. If the
    /// upstream fails, the error is forwarded instead of the array. Memory grows with every
    /// element, so use it only on publishers that finish.
    /// - Returns: A publisher that collects all received items and returns them as an array upon
    ///   completion.
    @inlinable
    public consuming func collect() -> Publishers.Collect<Self> {
        Publishers.Collect(upstream: self)
    }
}
