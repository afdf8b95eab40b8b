import TetherCore

/// The lifetime of an object: a value anyone may hold that says when the object has gone.
///
/// The owner keeps a ``Token`` in a stored property; the lifetime ends when that token is
/// deinitialised (the owner went away) or when the owner calls ``Token/end()``. Anyone may hold
/// the ``Lifetime`` itself without keeping the owner alive, and bind work to it:
///
/// ```swift
/// final class Screen {
///     private let token = Lifetime.Token()
///     var lifetime: Lifetime { Lifetime(token) }
///
///     init(events: PassthroughSubject<Event, Never>) {
///         events.prefix(during: lifetime).sink(weak: self, Screen.handle).store(in: lifetime)
///     }
/// }
/// ```
///
/// Observers registered with ``observeEnded(_:)`` run once, on the thread that ends the
/// lifetime, after its lock is released. The type is thread-safe.
public final class Lifetime: Sendable {
    @usableFromInline
    internal let core: LifetimeCore

    /// A lifetime that has already ended: work bound to it is cancelled at once.
    public static let ended: Lifetime = {
        let core = LifetimeCore()
        core.end()
        return Lifetime(core: core)
    }()

    /// Creates the lifetime that `token` controls.
    /// - Parameter token: The token the owner keeps; the lifetime ends with it.
    public init(_ token: Token) {
        core = token.core
    }

    internal init(core: LifetimeCore) {
        self.core = core
    }

    /// Makes a lifetime together with the token that ends it.
    /// - Returns: The lifetime to hand out, and the token for the owner to keep.
    public static func make() -> (lifetime: Lifetime, token: Token) {
        let token = Token()
        return (Lifetime(token), token)
    }

    /// Whether the lifetime has ended.
    public var hasEnded: Bool { core.hasEnded }

    /// Runs `action` once when the lifetime ends, or at once when it already has.
    ///
    /// The lifetime keeps `action` (and what it captures) until it ends or the observation is
    /// cancelled; cancel the observation when the work it guards finishes earlier.
    /// - Parameter action: What to run, on the thread that ends the lifetime.
    /// - Returns: An observation whose `cancel()` forgets `action`; discarding it keeps the
    ///   observation.
    @discardableResult
    public func observeEnded(_ action: @escaping () -> Void) -> Observation {
        Observation(core: core, key: core.observe(action))
    }

    /// The owner's half of a ``Lifetime``: the lifetime ends when the token is deinitialised or
    /// ``end()`` is called.
    public final class Token: Sendable {
        internal let core = LifetimeCore()

        /// Creates a token, and with it a lifetime that has not ended.
        public init() {}

        /// Ends the lifetime now, running its observers; later calls do nothing.
        public func end() {
            core.end()
        }

        deinit {
            core.end()
        }
    }

    /// A registration made by ``Lifetime/observeEnded(_:)``.
    ///
    /// Unlike ``AnyCancellable``, dropping it does not cancel it.
    public struct Observation: Cancellable, Sendable {
        internal let core: LifetimeCore
        internal let key: UInt64?

        /// Forgets the action, if it has not run yet.
        public func cancel() {
            if let key { core.remove(key) }
        }
    }
}

/// The shared state of a lifetime: its observers, or the fact that it has ended.
@usableFromInline
internal final class LifetimeCore: Sendable {
    /// `@unchecked`: the observers are the user's closures, which run once, on the thread that
    /// ends the lifetime, as Combine runs an `AnyCancellable`'s closure on the cancelling thread;
    /// the state itself is touched only under ``state``'s lock.
    private struct State: @unchecked Sendable {
        var observers: [UInt64: () -> Void] = [:]
        var nextKey: UInt64 = 0
        var ended = false
    }

    private let state = Locked(State())

    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Registers `action`; runs it at once and returns `nil` when already ended.
    func observe(_ action: @escaping () -> Void) -> UInt64? {
        let key = state.withLock { state -> UInt64? in
            guard !state.ended else { return nil }
            defer { state.nextKey += 1 }
            state.observers[state.nextKey] = action
            return state.nextKey
        }
        if key == nil { action() }
        return key
    }

    func remove(_ key: UInt64) {
        let removed = state.withLock { $0.observers.removeValue(forKey: key) }
        _ = removed
    }

    /// Ends the lifetime once and runs the observers in registration order, outside the lock.
    func end() {
        let observers = state.withLock { state -> [(UInt64, () -> Void)] in
            guard !state.ended else { return [] }
            state.ended = true
            defer { state.observers = [:] }
            return state.observers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        }
        for (_, action) in observers { action() }
    }
}

extension AnyCancellable {
    /// Cancels this cancellable when `lifetime` ends.
    ///
    /// The lifetime keeps this cancellable until it ends; when the cancellable wraps a Tether
    /// subscriber (`sink`, `assign`) that finishes earlier, the lifetime lets go of it then.
    /// - Parameter lifetime: The lifetime to bind the subscription to.
    public func store(in lifetime: Lifetime) {
        let observation = lifetime.observeEnded { self.cancel() }
        guard observation.key != nil, let reporter = terminationReporter else { return }
        if !reporter.observeTermination({ observation.cancel() }) {
            observation.cancel()
        }
    }
}

extension Cancellable {
    /// Cancels this cancellable when `lifetime` ends; see ``AnyCancellable/store(in:)-(Lifetime)``.
    /// - Parameter lifetime: The lifetime to bind the subscription to.
    public func store(in lifetime: Lifetime) {
        AnyCancellable(self).store(in: lifetime)
    }
}
