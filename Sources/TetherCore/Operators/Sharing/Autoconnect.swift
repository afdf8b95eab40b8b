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
    ///
    /// As in Combine, a subscriber that attaches while no connection is held yet — from inside
    /// the first subscriber's `receive(subscription:)`, or on another thread while the first
    /// connect is under way — connects too: the last connection made is kept, with a count of
    /// one, and the earlier one is released without being cancelled. A connection that
    /// completes after every subscriber has cancelled is cancelled at once.
    ///
    /// `final`, where Combine declares it without: no code outside this module could subclass it
    /// either way, and a call on a class that is not final goes through its table of methods,
    /// which the caller's module cannot specialise. A `share()` erased and subscribed three
    /// times then ran every value through unspecialised code, about 12,000 instructions a value.
    public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public final let upstream: Upstream

        @usableFromInline
        internal let connection = Locked(AutoconnectState())

        /// Creates a publisher that automatically connects to an upstream connectable publisher.
        /// - Parameter upstream: The publisher from which this publisher receives elements.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches `subscriber` to the upstream, connecting it if this is the first.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            let connects = connection.withLock { $0.attach() }
            upstream.subscribe(relay: Inner(downstream: subscriber, parent: self))
            guard connects else { return }
            let made = upstream.connect()
            // A connection this one replaces is released here, after the lock, without a cancel.
            let (unwanted, _) = connection.withLock { $0.connected(made) }
            unwanted?.cancel()
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
///
/// `count` is Combine's reference count: every subscriber that attaches while a connection is
/// held adds one, and every `connect()` that completes sets it to one. A subscriber that attaches
/// while no connection is held (a connect under way included) connects again, so a subscriber
/// attached from inside another's subscription makes a second connection that replaces the
/// first, which is released without being cancelled: what Combine does. `live` counts the
/// subscribers attached and not cancelled, so that a connection completed after every one of
/// them cancelled is cancelled at once instead of being held with nobody to serve.
@usableFromInline
internal struct AutoconnectState {
    @usableFromInline var count = 0
    @usableFromInline var live = 0
    @usableFromInline var connection: (any Cancellable)?

    @inlinable
    init() {}

    /// Counts a subscriber; `true` when the caller must connect.
    @inlinable
    mutating func attach() -> Bool {
        live += 1
        guard connection != nil else { return true }
        count += 1
        return false
    }

    /// Keeps the connection just made with a count of one and hands back the one it replaces, to
    /// be released outside the lock; or, when every subscriber cancelled meanwhile, hands back
    /// the connection just made, to be cancelled.
    @inlinable
    mutating func connected(
        _ made: any Cancellable
    ) -> (cancel: (any Cancellable)?, release: (any Cancellable)?) {
        guard live > 0 else { return (made, nil) }
        defer {
            connection = made
            count = 1
        }
        return (nil, connection)
    }

    /// Uncounts a subscriber; returns the connection to cancel when it was the last counted.
    @inlinable
    mutating func detach() -> (any Cancellable)? {
        live -= 1
        guard connection != nil else { return nil }
        count -= 1
        guard count <= 0 else { return nil }
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
///
/// `@unchecked Sendable`: `detach` lives under its lock; everything else is immutable.
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

extension Publishers.Autoconnect: SubscriberErasing {}
