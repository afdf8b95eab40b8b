extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// Each line has the form `prefix: event`, or just `event` when the prefix is empty, as
    /// Combine prints them: `receive subscription: (…)`, `request unlimited`,
    /// `request max: (n)`, `receive value: (…)`, `request max: (n) (synchronous)` for demand
    /// returned from `receive(_:)`, `receive finished`, `receive error: (…)` and
    /// `receive cancel`. Demand, values and completions pass through unchanged; lines are
    /// written on the thread of the event they log, one whole line at a time.
    /// - Parameters:
    ///   - prefix: A string — which defaults to empty — with which to prefix all log messages.
    ///   - stream: A stream for text output that receives messages, and which directs output
    ///     to the console by default. Each subscription writes to its own copy of the stream.
    /// - Returns: A publisher that prints log messages for all publishing events.
    @inlinable
    public consuming func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil)
        -> Publishers.Print<Self>
    {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }
}

extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally prefixed
    /// with a given string.
    ///
    /// This publisher prints log messages when receiving the following events: subscription,
    /// value, normal completion, failure, cancellation, and every request for demand.
    ///
    /// As in Combine, a value or a completion that arrives before the upstream's subscription is
    /// still passed on (the downstream's demand going back for a value).
    public struct Print<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages.
        public let prefix: String

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The stream to which the log messages are written; `nil` writes to standard output.
        public let stream: (any TextOutputStream)?

        /// Creates a publisher that prints log messages for all publishing events.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - prefix: A string with which to prefix all log messages.
        ///   - stream: A stream for text output that receives messages; `nil` writes to
        ///     standard output.
        @inlinable
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        /// Attaches `subscriber` through a subscription described as "Print".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
        }
    }
}

/// Where a ``Publishers/Print`` subscription writes: the user's stream, or standard output.
@usableFromInline
internal struct PrintTarget: TextOutputStream {
    @usableFromInline var stream: (any TextOutputStream)?

    @inlinable
    init(_ stream: (any TextOutputStream)?) {
        self.stream = stream
    }

    /// Writes `line` and a newline: to the stream through `print(_:to:)`, or to standard output
    /// in one write, as Combine does (a print hook sees the line in one piece).
    @inlinable
    mutating func writeLine(_ line: String) {
        if stream != nil {
            Swift.print(line, to: &self)
        } else {
            Swift.print(line)
        }
    }

    /// For `print(_:to:)`: only reached while there is a stream.
    @inlinable
    mutating func write(_ string: String) {
        stream?.write(string)
    }
}

extension Publishers.Print {
    /// The subscription: logs each signal and each call, then passes it on.
    ///
    /// Every signal and call is logged as it arrives and, as Combine's, every upstream value and
    /// completion is passed on, even after a cancel or a completion; calls reach the upstream
    /// only while it is attached, and a `cancel` before the subscription is ignored. The
    /// downstream is held for the whole life; whether the upstream is attached is decided by the
    /// subscription kernel's status (``UpstreamLink``; Print keeps no serial-path state), and the stream has a lock of its own, held only while one line is
    /// written, so that lines from different threads never interleave.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output

        @usableFromInline
        internal let link = UpstreamLink()

        /// Held for the whole life, as Combine holds it.
        @usableFromInline
        internal let downstream: Downstream

        /// `"prefix: "`, or empty.
        @usableFromInline
        internal let prefix: String

        @usableFromInline
        internal let target: Locked<PrintTarget>

        @inlinable
        internal init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
            self.downstream = downstream
            self.prefix = prefix.isEmpty ? "" : prefix + ": "
            target = Locked(PrintTarget(stream))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func log(_ event: String) {
            let line = prefix + event
            target.withLock { $0.writeLine(line) }
        }

        @inlinable
        internal func log(_ demand: Subscribers.Demand, synchronous: Bool) {
            let suffix = synchronous ? " (synchronous)" : ""
            if let max = demand.max {
                log("request max: (\(max))" + suffix)
            } else {
                log("request unlimited" + suffix)
            }
        }

        @inlinable
        internal func receive(subscription: any Subscription) {
            log("receive subscription: (\(subscription))")
            guard link.attach(subscription) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        @inlinable
        internal func receive(_ input: Output) -> Subscribers.Demand {
            log("receive value: (\(input))")
            let demand = downstream.receive(input)
            if demand > 0 {
                log(demand, synchronous: true)
            }
            return demand
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>) {
            switch completion {
            case .finished: log("receive finished")
            case .failure(let error): log("receive error: (\(error))")
            }
            _ = link.end(evenBeforeSubscription: true)
            downstream.receive(completion: completion)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            log(demand, synchronous: false)
            link.upstream?.request(demand)
        }

        @inlinable
        internal func cancel() {
            log("receive cancel")
            // Before the subscription there is nothing to cancel; Combine subscribes normally when
            // it arrives.
            link.endIfSubscribed()?.cancel()
        }

        @usableFromInline
        internal var description: String { "Print" }

        @usableFromInline
        internal var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}
