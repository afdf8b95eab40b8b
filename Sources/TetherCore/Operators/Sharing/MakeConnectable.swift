extension Publisher where Failure == Never {
    /// Creates a connectable wrapper around the publisher.
    ///
    /// Subscribers attach to a shared ``PassthroughSubject`` and receive nothing until you call
    /// ``ConnectablePublisher/connect()``, which subscribes that subject to this publisher; so
    /// several subscribers can attach before any element is produced.
    /// - Returns: A ``ConnectablePublisher`` wrapping this publisher.
    @inlinable
    public consuming func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// A publisher that provides explicit connectability to another publisher.
    ///
    /// It is a ``ConnectablePublisher``, which allows you to perform configuration before
    /// publishing any elements. Call ``connect()`` when you want to attach to the upstream
    /// publisher and start producing elements. Copies share one connection point.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        @usableFromInline
        internal let inner: Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher, attached to the provided upstream publisher.
        /// - Parameter upstream: The publisher from which to receive elements.
        public init(upstream: Upstream) {
            inner = upstream.multicast(subject: PassthroughSubject())
        }

        /// Attaches `subscriber` to the shared subject.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            inner.subscribe(subscriber)
        }

        /// Subscribes the shared subject to the upstream publisher.
        /// - Returns: A cancellable that cancels the upstream subscription; deallocating it
        ///   cancels too.
        @inlinable
        public func connect() -> any Cancellable {
            inner.connect()
        }
    }
}
