import Synchronization

/// The enabled `_Introspection` objects, in the order they were enabled.
///
/// `subscribe(_:)` and the wrappers it injects read ``count`` without the lock, so that a
/// subscription made while nothing is enabled costs one relaxed atomic load and nothing else; the
/// objects themselves are read under the lock and called after it is released.
@usableFromInline
internal enum IntrospectionRegistry {
    /// The enabled objects; written only under this lock. `nonisolated(unsafe)`: `_Introspection`
    /// is not `Sendable` (it is Combine's protocol): its hooks are called on whatever thread the
    /// event happens, as Combine calls them, and only the list itself is shared, under the lock.
    private nonisolated(unsafe) static let enabled = Locked<[any _Introspection]>([])

    /// How many objects are enabled, kept equal to `enabled.count` by every write to it.
    @usableFromInline
    internal static let count = Atomic<Int>(0)

    /// Whether any object is enabled. A hint read without the lock: an object enabled or disabled
    /// on another thread at the same moment may or may not be seen.
    @inlinable @inline(__always)
    internal static var isActive: Bool { count.load(ordering: .relaxed) != 0 }

    internal static func enable(_ introspection: any _Introspection) {
        enabled.withLock { enabled in
            guard !enabled.contains(where: { $0 === introspection }) else { return }
            enabled.append(introspection)
            count.store(enabled.count, ordering: .relaxed)
        }
    }

    internal static func disable(_ introspection: any _Introspection) {
        // Released after the lock: the last reference to the object may be this one.
        let removed = enabled.withLock { enabled -> [any _Introspection] in
            let removed = enabled.filter { $0 === introspection }
            enabled.removeAll { $0 === introspection }
            count.store(enabled.count, ordering: .relaxed)
            return removed
        }
        _ = removed
    }

    internal static func isEnabled(_ introspection: any _Introspection) -> Bool {
        enabled.withLock { enabled in enabled.contains { $0 === introspection } }
    }

    /// Calls `hook` on each object enabled now, outside the lock.
    internal static func forEachEnabled(_ hook: (any _Introspection) -> Void) {
        guard isActive else { return }
        for introspection in enabled.withLock({ $0 }) {
            hook(introspection)
        }
    }

    /// `subscribe(_:)` while an object is enabled: reports the subscription and hands the
    /// publisher a wrapper that reports the subscriber's signals.
    ///
    /// A subscriber that already is such a wrapper (an operator passing its downstream on to its
    /// upstream's `subscribe(_:)`, possibly erased by ``AnyPublisher``) is not wrapped again, and
    /// the hooks see it as an ``AnySubscriber`` of the subscriber it wraps.
    @usableFromInline @inline(never)
    internal static func subscribe<Upstream: Publisher, Downstream: Subscriber>(
        _ subscriber: Downstream, to publisher: Upstream
    ) where Upstream.Output == Downstream.Input, Upstream.Failure == Downstream.Failure {
        if let wrapped = (subscriber as? any IntrospectionTapped)?.introspectedSubscriber,
            let reported = wrapped as? AnySubscriber<Downstream.Input, Downstream.Failure>
        {
            forEachEnabled { $0.willReceive(publisher: publisher, subscriber: reported) }
            publisher.receive(subscriber: subscriber)
            forEachEnabled { $0.didReceive(publisher: publisher, subscriber: reported) }
        } else {
            forEachEnabled { $0.willReceive(publisher: publisher, subscriber: subscriber) }
            publisher.receive(subscriber: IntrospectedSubscriber(subscriber))
            forEachEnabled { $0.didReceive(publisher: publisher, subscriber: subscriber) }
        }
    }
}
