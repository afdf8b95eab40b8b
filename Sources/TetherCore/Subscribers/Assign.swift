extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// The subscriber requests `.unlimited` as soon as it receives its subscription and assigns
    /// each value to `object[keyPath: keyPath]` on the thread that delivers it. As in Combine,
    /// it holds ``object`` strongly until the upstream completes or the subscriber is cancelled,
    /// and then lets go of it (and of the subscription): an object that keeps the cancellable of
    /// an assignment to itself forms a cycle that only `cancel()` breaks. ``cancel()`` is
    /// thread-safe and cancels the subscription once; a second subscription is cancelled on
    /// arrival. Before any subscription, as in Combine, a completion is ignored and a cancel lets
    /// go of nothing: the object stays until the subscriber goes (a subscription that arrives
    /// after such a cancel is cancelled at once).
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        /// The kind of errors this subscriber might receive: it can receive none.
        public typealias Failure = Never

        @usableFromInline
        internal enum Link {
            case awaitingSubscription(Root)
            /// Cancelled before any subscription arrived: Combine keeps the object then.
            case cancelledAwaitingSubscription(Root)
            case subscribed(Root, any Subscription)
            case terminal
        }

        @usableFromInline
        internal let status: Locked<Link>

        /// Tells a ``CancellableBag`` or ``Lifetime`` holding this subscriber that it finished.
        @usableFromInline
        internal let termination = TerminationSignal()

        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object that contains the property to assign.
        ///
        /// The subscriber holds a strong reference to this object until the upstream publisher
        /// completes or the subscriber is cancelled, at which point this property becomes `nil`.
        /// A cancel before any subscription keeps it, as Combine's does.
        public var object: Root? {
            status.withLock { status in
                switch status {
                case .awaitingSubscription(let object), .cancelledAwaitingSubscription(let object),
                    .subscribed(let object, _):
                    return object
                case .terminal: return nil
                }
            }
        }

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        /// - Parameters:
        ///   - object: The object that contains the property. The subscriber assigns the
        ///     object's property every time it receives a new value.
        ///   - keyPath: A key path that indicates the property to assign.
        @inlinable
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            status = Locked(.awaitingSubscription(object))
            self.keyPath = keyPath
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        /// Stores the subscription and requests `.unlimited`; cancels any later subscription, and
        /// one that arrives after a cancel.
        /// - Parameter subscription: The subscription from the publisher.
        @inlinable
        public func receive(subscription: any Subscription) {
            let accepted = status.withLock { status -> Bool in
                guard case .awaitingSubscription(let object) = status else { return false }
                status = .subscribed(object, subscription)
                return true
            }
            if accepted {
                subscription.request(.unlimited)
            } else {
                subscription.cancel()
            }
        }

        /// Assigns the value to the object's property; ignored once completed or cancelled.
        /// - Parameter value: The published value.
        /// - Returns: `.none`: the subscriber asked for everything on subscription.
        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            // Moved out and back, not read in place: a `guard case` copied the whole status, the
            // subscription through its value witness (Docs/FastWithoutTheSpecialiser.md,
            // "Subscriptions moved out, not copied").
            let target = status.withLock { status -> Root? in
                switch consume status {
                case .subscribed(let object, let subscription):
                    status = .subscribed(object, subscription)
                    return object
                case let other:
                    status = other
                    return nil
                }
            }
            if let target {
                target[keyPath: keyPath] = value
            }
            return .none
        }

        /// Releases the object and the subscription; ignored before the subscription, as in
        /// Combine.
        /// - Parameter completion: How the publisher finished.
        @inlinable
        public func receive(completion: Subscribers.Completion<Never>) {
            let released = status.withLock { status -> Link? in
                guard case .subscribed = status else { return nil }
                defer { status = .terminal }
                return status
            }
            guard released != nil else { return }
            termination.fire()
        }

        /// Cancels the subscription and releases the object, once; later calls do nothing. Before
        /// the subscription it only marks the subscriber, which keeps the object, as Combine's
        /// does, and cancels the subscription when it arrives.
        @inlinable
        public func cancel() {
            let previous = status.withLock { status -> Link in
                defer {
                    switch status {
                    case .awaitingSubscription(let object): status = .cancelledAwaitingSubscription(object)
                    case .subscribed: status = .terminal
                    case .cancelledAwaitingSubscription, .terminal: break
                    }
                }
                return status
            }
            if case .subscribed(_, let subscription) = previous {
                subscription.cancel()
            }
            termination.fire()
        }

        /// `"Assign Root."`, with the type of the object, as in Combine.
        public var description: String { "Assign \(Root.self)." }

        /// A mirror with the children `object`, `keyPath` and `status`.
        public var customMirror: Mirror {
            let current = status.withLock { $0 }
            let object: Root?
            let statusDescription: String
            switch current {
            case .awaitingSubscription(let held):
                object = held
                statusDescription = "awaiting subscription"
            case .cancelledAwaitingSubscription(let held):
                object = held
                statusDescription = "cancelled"
            case .subscribed(let held, let subscription):
                object = held
                statusDescription = "subscribed(\(subscription))"
            case .terminal:
                object = nil
                statusDescription = "terminal"
            }
            return Mirror(
                self,
                children: [
                    ("object", object as Any),
                    ("keyPath", keyPath),
                    ("status", statusDescription),
                ])
        }

        /// The ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// The subscriber requests `.unlimited` on subscription and assigns each value on the
    /// thread that delivers it. It holds `object` strongly until the publisher completes or
    /// the returned cancellable is cancelled or deallocated; storing that cancellable on
    /// `object` itself therefore forms a reference cycle, which only `cancel()` breaks. To tie
    /// a pipeline to a `@Published` property of its owner without a cycle, use
    /// ``Publisher/assign(to:)``.
    /// - Parameters:
    ///   - keyPath: A key path that indicates the property to assign.
    ///   - object: The object that contains the property. The subscriber assigns the object's
    ///     property every time it receives a new value.
    /// - Returns: An ``AnyCancellable`` instance. Call `cancel()` on this instance when you no
    ///   longer want the publisher to automatically assign the property. Deinitializing this
    ///   instance will also cancel automatic assignment.
    @inlinable
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        #if DEBUG
        Ledger.noteOrigin(subscriber, publisher: self)
        #endif
        subscribe(subscriber)
        return AnyCancellable(object: subscriber)
    }
}

extension Subscribers.Assign: ChainEnd {}

extension Subscribers.Assign: TerminationReporting {
    package func observeTermination(_ handler: @escaping @Sendable () -> Void) -> Bool {
        termination.observe(handler)
    }
}
