extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given error-throwing
    /// closure returns false.
    ///
    /// Each omitted element is replaced by a demand of one towards the upstream; other demand
    /// passes through unchanged. Once the closure returns `false` it is not called again. If it
    /// throws, the publisher cancels the upstream and fails with the error. Upstream failures are
    /// republished as `any Error`. The closure runs on the thread that delivers the upstream value.
    /// Completion or cancellation releases the closure; the subscription keeps its subscriber, as
    /// Combine's does, until the subscriber lets the subscription go.
    ///
    /// As in Combine, a value (answered with `.none`), a completion, a request or a `cancel` that
    /// comes before the upstream's subscription is ignored.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that omits elements from an upstream publisher until a given
        /// error-throwing closure returns false.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - predicate: The error-throwing closure that indicates whether to drop the element.
        @inlinable
        public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches `subscriber` through a subscription described as "TryDropWhile".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // The step runs only on the upstream's serial path, so the flag needs no lock.
            let dropping = SerialVariable(true)
            upstream.subscribe(
                VerdictSubscription<Output, Upstream.Failure, S>(
                    name: "TryDropWhile", downstream: subscriber
                ) { value in
                    guard dropping.value else { return .pass }
                    do {
                        if try predicate(value) { return .skipAndReplace }
                    } catch {
                        return .fail(error)
                    }
                    dropping.value = false
                    return .pass
                })
        }
    }
}

extension Publisher {
    /// Omits elements from the upstream publisher until an error-throwing closure returns false,
    /// before republishing all remaining elements.
    ///
    /// Each omitted element is replaced by a demand of one towards the upstream. If the closure
    /// throws, the upstream is cancelled and the publisher fails with the thrown error.
    /// - Parameter predicate: A closure that takes an element as a parameter and returns a
    ///   Boolean value indicating whether to drop the element from the publisher's output, or
    ///   throws.
    /// - Returns: A publisher that skips over elements until the provided closure returns
    ///   `false`, and then republishes all remaining elements.
    @inlinable
    public consuming func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}
