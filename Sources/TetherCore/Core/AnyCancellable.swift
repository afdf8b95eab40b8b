/// A type-erasing cancellable object that executes a provided closure when cancelled.
///
/// An `AnyCancellable` automatically calls ``cancel()`` when deinitialized, so a subscription
/// lives exactly as long as its `AnyCancellable` is kept. Cancelling is thread-safe and runs the
/// cancellation exactly once, however many threads call it; afterwards the instance drops what it
/// held, which breaks any reference cycle running through the cancellation closure.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    @usableFromInline
    internal enum Canceller {
        case object(any AnyObject & Cancellable)
        case closure(() -> Void)
    }

    /// What to cancel, until the first ``cancel()`` takes it; read and written only under `lock`.
    ///
    /// Held beside the lock rather than in it, and declared first: the lock's four bytes then
    /// fill the space after the enum's tag, and the instance takes 40 bytes rather than 48, a
    /// smaller allocation for every stored subscription.
    @usableFromInline @exclusivity(unchecked)
    internal var canceller: Canceller?

    /// Guards `canceller`.
    @usableFromInline
    internal let lock = Locked(())

    /// Initializes the cancellable object with the given cancel-time closure.
    ///
    /// - Parameter cancel: A closure that the `cancel()` method executes, at most once.
    public init(_ cancel: @escaping () -> Void) {
        canceller = .closure(cancel)
    }

    /// Initializes the cancellable object with the given cancellable, which it cancels on
    /// ``cancel()`` or deinit.
    ///
    /// - Parameter canceller: The cancellable to wrap.
    public init<C: Cancellable>(_ canceller: C) {
        if let object = canceller as? any AnyObject & Cancellable {
            self.canceller = .object(object)
        } else {
            self.canceller = .closure(canceller.cancel)
        }
    }

    /// Wraps a class-bound cancellable without a dynamic cast; used by the sinks.
    @inlinable
    package init(object: some AnyObject & Cancellable) {
        canceller = .object(object)
    }

    deinit {
        // Read without the lock: nothing else reaches an instance being deinitialised, see
        // Docs/SubscriptionKernel.md.
        Self.run(canceller.take())
    }

    /// Cancels the activity: runs the cancellation once and releases it.
    public func cancel() {
        // Moved out, not copied: a copy of the existential and a release of the original would
        // go through run-time value witnesses.
        Self.run(lock.withLock { _ in canceller.take() })
    }

    /// Runs a cancellation taken out of `canceller`, if there was one left.
    @inline(__always)
    private static func run(_ taken: consuming Canceller?) {
        switch taken {
        case .object(let object): object.cancel()
        case .closure(let closure): closure()
        case nil: break
        }
    }

    /// Two `AnyCancellable`s are equal when they are the same instance.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension AnyCancellable {
    /// Stores this type-erasing cancellable instance in the specified collection.
    ///
    /// - Parameter collection: The collection in which to store this `AnyCancellable`.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this type-erasing cancellable instance in the specified set.
    ///
    /// - Parameter set: The set in which to store this `AnyCancellable`.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }
}

extension Cancellable {
    /// Stores this cancellable instance in the specified collection, wrapped in an
    /// ``AnyCancellable``.
    ///
    /// - Parameter collection: The collection in which to store this cancellable.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C)
    where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Stores this cancellable instance in the specified set, wrapped in an ``AnyCancellable``.
    ///
    /// - Parameter set: The set in which to store this cancellable.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
