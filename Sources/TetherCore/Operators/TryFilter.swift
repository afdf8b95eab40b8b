extension Publishers {
    /// A publisher that republishes all elements that match a provided error-throwing closure.
    ///
    /// Each element the closure rejects is compensated with a demand of one, so the subscriber's
    /// demand counts only elements it receives. If the closure throws, the publisher cancels the
    /// upstream and fails with the thrown error; it delivers nothing after that. Upstream failures
    /// are republished as `any Error`. The closure runs on the thread that delivers the upstream
    /// value. The subscription keeps the closure and its subscriber, as Combine's does, until the
    /// subscriber lets the subscription go, completion and cancellation notwithstanding.
    ///
    /// As in Combine, an upstream that sends a value or a completion before its subscription, or
    /// a request made before then, stops the process; a `cancel` before then cancels the
    /// subscription when it comes.
    public struct TryFilter<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: any error, thrown or upstream.
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// An error-throwing closure that indicates whether this filter should republish an
        /// element.
        public let isIncluded: (Upstream.Output) throws -> Bool

        /// Creates a publisher that republishes all elements that match a provided
        /// error-throwing closure.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - isIncluded: An error-throwing closure that indicates whether this filter should
        ///     republish an element.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches `subscriber` through a `TrySubscription` subscription described as "TryFilter".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let isIncluded = self.isIncluded
            upstream.subscribe(
                TrySubscription<Upstream.Output, Upstream.Failure, S>(
                    name: "TryFilter", downstream: subscriber, beforeSubscription: .trap, mirror: .downstream
                ) {
                    try isIncluded($0) ? $0 : nil
                })
        }
    }
}

extension Publisher {
    /// Republishes all elements that match a provided error-throwing closure.
    ///
    /// Rejected elements are replaced by a demand of one towards the upstream. If the closure
    /// throws, the upstream is cancelled and the publisher fails with the thrown error.
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value that
    ///   indicates whether to republish the element, or throws an error.
    /// - Returns: A publisher that republishes all elements that satisfy the closure.
    @inlinable
    public consuming func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Self> {
        Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
    }
}

extension Publishers.Filter {
    /// Fuses a filter and a try-filter into one: `filter(p).tryFilter(q)` tests
    /// `p(x) && (try q(x))` in a single relay; `q` runs only for elements `p` accepts.
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value that
    ///   indicates whether to republish the element, or throws an error.
    /// - Returns: One `TryFilter` over the original upstream.
    @inlinable
    public consuming func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { value in
            guard first(value) else { return false }
            return try isIncluded(value)
        }
    }
}

extension Publishers.TryFilter {
    /// Fuses a try-filter and a filter into one: `tryFilter(p).filter(q)` tests
    /// `(try p(x)) && q(x)` in a single relay; `q` runs only for elements `p` accepts.
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value
    ///   indicating whether to republish the element.
    /// - Returns: One `TryFilter` over the original upstream.
    @inlinable
    public consuming func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { value in
            guard try first(value) else { return false }
            return isIncluded(value)
        }
    }

    /// Fuses two try-filters into one: `tryFilter(p).tryFilter(q)` tests
    /// `(try p(x)) && (try q(x))` in a single relay; `q` runs only for elements `p` accepts.
    /// - Parameter isIncluded: A closure that takes one element and returns a Boolean value that
    ///   indicates whether to republish the element, or throws an error.
    /// - Returns: One `TryFilter` over the original upstream.
    @inlinable
    public consuming func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool) -> Publishers.TryFilter<Upstream> {
        let first = self.isIncluded
        return Publishers.TryFilter(upstream: upstream) { value in
            guard try first(value) else { return false }
            return try isIncluded(value)
        }
    }
}
