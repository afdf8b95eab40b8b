extension ConnectablePublisher {
    /// Automates the process of connecting or disconnecting from this connectable publisher.
    ///
    /// The returned publisher calls ``ConnectablePublisher/connect()`` when the first
    /// subscriber attaches, and cancels that connection when the last attached subscriber
    /// cancels; a subscriber that attaches after that connects again. Demand and failures pass
    /// through unchanged.
    /// - Returns: A publisher which automatically connects to its upstream connectable
    ///   publisher.
    @inlinable
    public func autoconnect() -> Publishers.Autoconnect<Self> {
        Publishers.Autoconnect(upstream: self)
    }
}

extension Publishers {
    /// A publisher that automatically connects to an upstream connectable publisher.
    ///
    /// It calls ``ConnectablePublisher/connect()`` on the upstream when first attached to by a
    /// subscriber, after attaching that subscriber, and keeps a count of the subscribers
    /// attached since: each one that cancels lowers it, and when it reaches zero the
    /// connection is cancelled. A subscriber that completes keeps its place in the count, as
    /// in Combine. Values are delivered on the thread that delivers them upstream.
    public class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        @usableFromInline
        internal let connection = Locked(AutoconnectCount())

        /// Creates a publisher that automatically connects to an upstream connectable publisher.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream, connecting it if this is the first.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let connects = connection.withLock { $0.attach() }
            upstream.subscribe(Inner(downstream: subscriber, parent: self))
            guard connects else { return }
            let made = upstream.connect()
            if let unwanted = connection.withLock({ $0.connected(made) }) {
                unwanted.cancel()
            }
        }

        /// One attached subscriber cancelled.
        @usableFromInline
        internal func detach() {
            if let connection = connection.withLock({ $0.detach() }) {
                connection.cancel()
            }
        }
    }
}

/// The reference count behind ``Publishers/Autoconnect``; its methods run under the lock and
/// call nothing.
@usableFromInline
internal struct AutoconnectCount {
    @usableFromInline var attached = 0
    @usableFromInline var connection: (any Cancellable)?
    /// A `connect()` is under way outside the lock.
    @usableFromInline var connecting = false

    @inlinable
    init() {}

    /// Counts a subscriber; `true` when the caller must connect.
    @inlinable
    mutating func attach() -> Bool {
        attached += 1
        guard connection == nil, !connecting else { return false }
        connecting = true
        return true
    }

    /// Keeps the connection just made, or hands it back to be cancelled when every
    /// subscriber cancelled while it was being made.
    @inlinable
    mutating func connected(_ made: any Cancellable) -> (any Cancellable)? {
        connecting = false
        guard attached > 0 else { return made }
        connection = made
        return nil
    }

    /// Uncounts a subscriber; returns the connection to cancel when it was the last.
    @inlinable
    mutating func detach() -> (any Cancellable)? {
        attached -= 1
        guard attached == 0 else { return nil }
        defer { connection = nil }
        return connection
    }
}

extension Publishers.Autoconnect {
    /// Relays the upstream's signals; wraps the subscription so that its cancel is counted.
    @usableFromInline
    internal struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline let downstream: Downstream
        @usableFromInline let parent: Publishers.Autoconnect<Upstream>
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, parent: Publishers.Autoconnect<Upstream>) {
            self.downstream = downstream
            self.parent = parent
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: AutoconnectSubscription(subscription, parent: parent.detach))
        }

        @inlinable
        func receive(_ input: Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            downstream.receive(completion: completion)
        }

        @usableFromInline var description: String { "Autoconnect" }
        /// Combine's children: the autoconnect publisher, then the downstream.
        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["parent": parent, "downstream": downstream])
        }
        @usableFromInline var playgroundDescription: Any { description }
    }
}

/// The subscription an ``Publishers/Autoconnect`` subscriber holds: the upstream's, whose
/// first `cancel` also lowers the autoconnect's count. As in Combine, every `cancel` (a repeated
/// one too) is passed on to the upstream's subscription, and the subscription describes and
/// identifies itself as the upstream's.
@usableFromInline
internal final class AutoconnectSubscription: Subscription, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal let upstream: any Subscription

    /// Lowers the autoconnect's count; `nil` once it has.
    @usableFromInline
    internal let detach: Locked<(() -> Void)?>

    @usableFromInline
    internal let upstreamDescription: String

    /// The upstream subscription's, as in Combine.
    @usableFromInline
    internal let combineIdentifier: CombineIdentifier

    @inlinable
    internal init(_ upstream: any Subscription, parent detach: @escaping () -> Void) {
        self.upstream = upstream
        self.detach = Locked(detach)
        upstreamDescription = String(describing: upstream)
        combineIdentifier = upstream.combineIdentifier
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Passed on until the first `cancel`.
    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        guard detach.withLock({ $0 != nil }) else { return }
        upstream.request(demand)
    }

    @inlinable
    internal func cancel() {
        let first = detach.withLock { detach -> (() -> Void)? in
            defer { detach = nil }
            return detach
        }
        first?()
        upstream.cancel()
    }

    @usableFromInline
    internal var description: String { upstreamDescription }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
