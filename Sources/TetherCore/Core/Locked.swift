import Synchronization

/// The one lock primitive of the library: a `Synchronization.Mutex` around a state value.
///
/// Package-wide, so that TetherFoundation's subscriptions lock the same way.
///
/// `Mutex.withLock` transfers its value with `sending`, which a generic state holding subscribers
/// cannot satisfy; every state machine in Tether is confined to its lock, so the box vouches for
/// it. Bodies must not call out to subscribers, subscriptions or user code: return an action and
/// perform it after `withLock` returns.
@usableFromInline
package struct Locked<State>: ~Copyable {
    @usableFromInline
    package let mutex: Mutex<Unchecked<State>>

    #if TETHER_TSAN
    /// Written on the way out of every critical section and read on the way in. The mutex
    /// already orders them; this makes the order visible to ThreadSanitizer, which does not see
    /// a contended acquisition (it happens in the uninstrumented Synchronization library) and
    /// would otherwise report the guarded state as raced. Only in ThreadSanitizer builds
    /// (`-Xswiftc -DTETHER_TSAN`): in optimised builds, a field after a `Mutex` whose value is
    /// generic was laid out differently by specialised and unspecialised code (Swift 6.3.1),
    /// which corrupted the lock.
    @usableFromInline
    package let handoff = Atomic<Bool>(false)
    #endif

    /// Takes `initial` over rather than copying it: borrowed, a state that holds subscriptions
    /// was copied into the mutex and the original destroyed, through its value witnesses.
    @inlinable @inline(__always)
    package init(_ initial: consuming State) {
        mutex = Mutex(Unchecked(initial))
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    ///
    /// The result leaves the lock as it is, vouched for as the state is (`nonisolated(unsafe)`),
    /// not wrapped in an `Unchecked`: code that runs unspecialised with a result of a generic type
    /// (a zip's or combine-latest's output) looked `Unchecked<Result>` up in the run time's
    /// metadata cache on every call.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        mutex.withLock { box in
            #if TETHER_TSAN
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(true, ordering: .releasing) }
            #endif
            nonisolated(unsafe) let result = body(&box.value)
            return result
        }
    }

    /// Runs `body` with exclusive access to the state if the lock is free, without waiting.
    /// - Returns: Whether `body` ran.
    @inlinable @inline(__always)
    package func withLockIfAvailable(_ body: (inout State) -> Void) -> Bool {
        #if TETHER_TSAN
        mutex.withLockIfAvailable { box -> Void in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(true, ordering: .releasing) }
            body(&box.value)
        } != nil
        #else
        mutex.withLockIfAvailable { box in body(&box.value) } != nil
        #endif
    }
}

/// A value that crosses a lock boundary under the lock's protection.
@usableFromInline
package struct Unchecked<Value>: @unchecked Sendable {
    @usableFromInline
    package var value: Value

    @inlinable
    package init(_ value: consuming Value) { self.value = value }
}

// A `Mutex` is `Sendable` for any value, because `withLock` transfers the value in and out with
// `sending`. `Locked` gives that up (see above), so it is `Sendable` only where its state is: a
// type that shares a lock over non-`Sendable` state says why that is safe where it declares
// itself `@unchecked Sendable`.
extension Locked: @unchecked Sendable where State: Sendable {}
