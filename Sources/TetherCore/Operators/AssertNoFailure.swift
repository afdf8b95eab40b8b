extension Publishers {
    /// A publisher that raises a fatal error upon receiving any failure, and otherwise
    /// republishes all received input.
    ///
    /// Use it for internal integrity checks. Demand, values and the subscription are the
    /// upstream's own; the trap happens on the thread that delivers the failure, with the
    /// message `"<prefix>: <error>"` (just `"<error>"` when the prefix is empty), reported at
    /// ``file`` and ``line``.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: none, it traps instead.
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The string used at the beginning of the fatal error message.
        public let prefix: String

        /// The filename used in the error message.
        public let file: StaticString

        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that raises a fatal error upon receiving any failure, and
        /// otherwise republishes all received input.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - prefix: The string used at the beginning of the fatal error message.
        ///   - file: The filename used in the error message.
        ///   - line: The line number used in the error message.
        @inlinable
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches `subscriber` through a value-type relay: no allocation, unless the relay is
        /// large and its upstream would erase it anyway (see `subscribe(relay:)`).
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable @inline(__always)
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(relay: Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publishers.AssertNoFailure {
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        @usableFromInline let downstream: Downstream
        @usableFromInline let prefix: String
        @usableFromInline let file: StaticString
        @usableFromInline let line: UInt
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
            self.downstream = downstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                let lead = prefix.isEmpty ? "" : "\(prefix): "
                fatalError("\(lead)\(error)", file: file, line: line)
            }
        }

        @usableFromInline var description: String { "AssertNoFailure" }

        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
        }

        @usableFromInline var playgroundDescription: Any { description }
    }
}

extension Publishers.AssertNoFailure: SubscriberErasing {}

extension Publisher {
    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all
    /// received input.
    ///
    /// Like `fatalError(_:file:line:)`, the check is active in every build configuration.
    /// Demand and values pass through unchanged.
    /// - Parameters:
    ///   - prefix: A string used at the beginning of the fatal error message.
    ///   - file: A filename used in the error message. This defaults to `#file`.
    ///   - line: A line number used in the error message. This defaults to `#line`.
    /// - Returns: A publisher that raises a fatal error when its upstream publisher fails.
    @inlinable
    public consuming func assertNoFailure(
        _ prefix: String = "", file: StaticString = #file, line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
