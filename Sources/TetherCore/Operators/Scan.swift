extension Publishers {
    /// A publisher that transforms elements from the upstream publisher by providing the current
    /// element to a closure along with the last value returned by the closure.
    ///
    /// Demand passes through unchanged (one result per upstream element), the subscription is
    /// the upstream's own, and failures pass through as `Upstream.Failure`. The closure runs on
    /// the thread that delivers the upstream value. Each subscription starts again from
    /// `initialResult`.
    public struct Scan<Upstream: Publisher, Output>: Publisher {
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The previous result returned by the closure, for the first element.
        public let initialResult: Output

        /// A closure that takes as its arguments the previous value returned by the closure and
        /// the next element emitted from the upstream publisher.
        public let nextPartialResult: (Output, Upstream.Output) -> Output

        /// Creates a publisher that transforms elements from the upstream publisher by providing
        /// the current element to a closure along with the last value returned by the closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - initialResult: The previous result returned by the closure, for the first
        ///     element.
        ///   - nextPartialResult: A closure that takes as its arguments the previous value
        ///     returned by the closure and the next element emitted from the upstream publisher.
        @inlinable
        public init(
            upstream: Upstream, initialResult: Output,
            nextPartialResult: @escaping (Output, Upstream.Output) -> Output
        ) {
            self.upstream = upstream
            self.initialResult = initialResult
            self.nextPartialResult = nextPartialResult
        }

        /// Attaches `subscriber` through a relay that keeps the running result.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, initial: initialResult, next: nextPartialResult))
        }
    }
}

extension Publishers.Scan {
    /// The relay: a class only because the running result must persist between values. The
    /// upstream's signals are serial, so the result needs no lock.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let next: (Output, Upstream.Output) -> Output
        /// Serial path only.
        @usableFromInline @exclusivity(unchecked) var accumulated: Output

        @inlinable
        init(downstream: Downstream, initial: Output, next: @escaping (Output, Upstream.Output) -> Output) {
            self.downstream = downstream
            self.next = next
            accumulated = initial
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            accumulated = next(accumulated, input)
            return downstream.receive(accumulated)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Scan" }
        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["downstream": downstream, "result": accumulated])
        }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publisher {
    /// Transforms elements from the upstream publisher by providing the current element to a
    /// closure along with the last value returned by the closure.
    ///
    /// Demand and failures pass through unchanged.
    /// - Parameters:
    ///   - initialResult: The previous result returned by the `nextPartialResult` closure.
    ///   - nextPartialResult: A closure that takes as its arguments the previous value returned
    ///     by the closure and the next element emitted from the upstream publisher.
    /// - Returns: A publisher that transforms elements by applying a closure that receives its
    ///   previous return value and the next element from the upstream publisher.
    @inlinable
    public consuming func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
        -> Publishers.Scan<Self, T>
    {
        Publishers.Scan(upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
    }
}
