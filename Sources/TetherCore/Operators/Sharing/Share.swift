extension Publisher {
    /// Shares the output of an upstream publisher with multiple subscribers.
    ///
    /// The returned publisher is a class: every subscriber to the same instance shares one
    /// subscription to the upstream, made when the first subscriber attaches and cancelled when
    /// every attached subscriber has cancelled. A subscriber that attaches later receives only
    /// the values sent after it attached, and a value reaches only the subscribers with demand
    /// for it (the shared subject is a ``PassthroughSubject``). The upstream is asked for
    /// `.unlimited` once any subscriber has demand. Failures pass through unchanged.
    /// - Returns: A class instance that shares elements received from its upstream to
    ///   multiple subscribers.
    @inlinable
    public consuming func share() -> Publishers.Share<Self> {
        Publishers.Share(upstream: self)
    }
}

extension Publishers {
    /// A publisher that shares the output of an upstream publisher with multiple subscribers.
    ///
    /// It is effectively a ``Publishers/Multicast`` through a ``PassthroughSubject`` with an
    /// implicit ``ConnectablePublisher/autoconnect()``: the upstream is subscribed once, when
    /// the first subscriber attaches, and cancelled when all attached subscribers have
    /// cancelled. It is a class, equal only to itself, so that copies of it share one upstream
    /// subscription.
    public final class Share<Upstream: Publisher>: Publisher, Equatable {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        @usableFromInline
        internal let shared: Publishers.Autoconnect<Publishers.Multicast<Upstream, PassthroughSubject<Output, Failure>>>

        /// Creates a publisher that shares the output of `upstream`.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        public init(upstream: Upstream) {
            self.upstream = upstream
            shared = Publishers.Autoconnect(upstream: upstream.multicast(subject: PassthroughSubject()))
        }

        /// Attaches `subscriber` to the shared stream, connecting it if this is the first.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            shared.subscribe(subscriber)
        }

        /// Two shares are equal when they are the same instance.
        /// - Parameters:
        ///   - lhs: A share to compare.
        ///   - rhs: Another share to compare.
        /// - Returns: `true` when both are the same instance.
        public static func == (lhs: Share, rhs: Share) -> Bool {
            lhs === rhs
        }
    }
}

extension Publishers.Share: LedgerChainLink {
    @usableFromInline var ledgerUpstream: Any { upstream }
}
