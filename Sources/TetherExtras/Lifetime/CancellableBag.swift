import TetherCore

/// A thread-safe bag of cancellables that cancels them all when it is cancelled or deallocated.
///
/// It behaves like RxSwift's `DisposeBag`: ``cancel()`` (or deinit) cancels every entry, and
/// anything inserted after that is cancelled at once. Unlike a `Set<AnyCancellable>`, a
/// long-lived bag does not grow with finished subscriptions: an entry whose subscription ends
/// on its own is dropped.
///
/// ## How a finished subscription leaves the bag
///
/// Tether's subscriber objects behind `sink`, `sink(weak:)` and `assign` carry a termination
/// signal that fires once, when their upstream completes or they are cancelled. On insertion
/// the bag looks behind the ``AnyCancellable`` for such a subscriber and registers a handler
/// that removes the entry by its key (holding the bag weakly). A subscriber that had already
/// finished is removed straight away. Other cancellables (an `AnyCancellable` made from a
/// closure, a user's own subscriber) cannot say when they are done, and stay until the bag is
/// cancelled.
///
/// Entries are cancelled, and removed entries released, after the bag's lock is released.
public final class CancellableBag: Cancellable, Sendable {
    private struct State {
        var entries: [UInt64: AnyCancellable] = [:]
        var nextKey: UInt64 = 0
        var cancelled = false
    }

    private let state = Locked(State())

    /// Creates an empty bag.
    public init() {}

    deinit {
        cancel()
    }

    /// The number of entries the bag holds now.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Whether ``cancel()`` was called (or the bag is being deallocated).
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Adds `cancellable`, or cancels it at once when the bag was already cancelled.
    /// - Parameter cancellable: The cancellable to keep until the bag is cancelled or the
    ///   subscription behind it finishes.
    public func insert(_ cancellable: AnyCancellable) {
        let key = state.withLock { state -> UInt64? in
            guard !state.cancelled else { return nil }
            defer { state.nextKey += 1 }
            state.entries[state.nextKey] = cancellable
            return state.nextKey
        }
        guard let key else {
            cancellable.cancel()
            return
        }
        guard let reporter = cancellable.terminationReporter else { return }
        weak let bag = self
        let watching = reporter.observeTermination { bag?.remove(key) }
        if !watching {
            remove(key)
        }
    }

    /// Cancels every entry and empties the bag; later insertions are cancelled at once.
    public func cancel() {
        let entries = state.withLock { state -> [AnyCancellable] in
            state.cancelled = true
            defer { state.entries = [:] }
            return state.entries.sorted { $0.key < $1.key }.map(\.value)
        }
        for entry in entries { entry.cancel() }
    }

    private func remove(_ key: UInt64) {
        let removed = state.withLock { $0.entries.removeValue(forKey: key) }
        _ = removed
    }
}

extension AnyCancellable {
    /// Stores this cancellable in `bag`, which cancels it when the bag is cancelled or
    /// deallocated, and drops it early when its subscription finishes.
    /// - Parameter bag: The bag to store this cancellable in.
    public func store(in bag: CancellableBag) {
        bag.insert(self)
    }
}

extension Cancellable {
    /// Stores this cancellable in `bag`, wrapped in an ``AnyCancellable``.
    /// - Parameter bag: The bag to store this cancellable in.
    public func store(in bag: CancellableBag) {
        bag.insert(AnyCancellable(self))
    }
}
