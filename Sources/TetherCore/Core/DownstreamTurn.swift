#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The right to call into one subscriber, taken in turn by the threads that deliver to it.
///
/// A subscriber receives its signals one at a time. When several threads deliver to the same
/// subscriber (senders into a subject, a `CurrentValueSubject`'s owed value on a request), each
/// waits for its turn and then makes its own call: no thread delivers another thread's values,
/// so a `send()` returns once its own value has been offered, and nothing queues up behind a
/// slow subscriber except threads, which the system schedules fairly.
///
/// A call into the subscriber can send again on the same thread (a subscriber that sends into
/// the subject it listens to). Taking the turn again would deadlock, so ``run(_:)`` returns
/// `false` instead, and the caller decides: the subjects, the notification center's publisher,
/// `switchToLatest` and `drop(untilOutputFrom:)` deliver the signal at once, nested in the call
/// under way, as Combine's recursive locks do there (``nesting(_:)-(()->Subscribers.Demand)``);
/// a request from inside a delivery that makes a value due leaves it for the delivering frame,
/// which delivers it once the call returns.
///
/// This is the one place in Tether where a call-out happens while a lock is held: the lock here
/// guards no state, only whose turn it is, and every path that could take it again on the same
/// thread is turned away before it waits. State machines keep their own `Locked` and, as
/// everywhere else, never call out under it.
@usableFromInline
package struct DownstreamTurn: ~Copyable, @unchecked Sendable {
    /// The identity of the thread whose turn it is, or zero. Only the holder writes its own
    /// identity, so a thread that reads its own identity here holds the turn; any other value
    /// means it does not, whatever another thread is doing.
    @usableFromInline
    package let holder = Atomic<UInt>(0)

    /// Held for the length of a turn. After the holder, so that the turn takes twelve bytes and a
    /// four-byte field can follow it in the same word.
    @usableFromInline
    package let gate = Locked(())

    @inlinable
    package init() {}

    /// Runs `body` in this thread's turn, waiting for another thread's turn to end first.
    /// - Returns: `false`, without running `body`, when this thread holds the turn already:
    ///   the caller is inside a call into the subscriber, and leaves its signal for the
    ///   delivering frame to pick up.
    @inlinable
    package func run(_ body: () -> Void) -> Bool {
        let thread = DownstreamTurn.currentThread
        if holder.load(ordering: .relaxed) == thread { return false }
        gate.withLock { _ in
            holder.store(thread, ordering: .relaxed)
            body()
            holder.store(0, ordering: .relaxed)
        }
        return true
    }

    /// Runs `body` in this thread's turn if no thread holds the turn, without waiting.
    /// - Returns: Whether `body` ran: `false` when any thread, this one included, holds the turn.
    @inlinable
    package func ifFree(_ body: () -> Void) -> Bool {
        let thread = DownstreamTurn.currentThread
        if holder.load(ordering: .relaxed) == thread { return false }
        return gate.withLockIfAvailable { _ in
            holder.store(thread, ordering: .relaxed)
            body()
            holder.store(0, ordering: .relaxed)
        }
    }

    /// Runs `body` in this thread's turn, or straight away when this thread holds the turn
    /// already: a call from inside a call into the subscriber nests, as it does under Combine's
    /// recursive lock.
    ///
    /// Two forms, for a value's delivery (which returns demand) and for the other signals,
    /// rather than one generic in the result: unspecialised, a generic result would be looked up
    /// in the run time's metadata cache on every call.
    /// - Returns: The demand `body` returned.
    @inlinable
    package func nesting(_ body: () -> Subscribers.Demand) -> Subscribers.Demand {
        var result = Subscribers.Demand.none
        if run({ result = body() }) {
            return result
        }
        return body()
    }

    /// Runs `body` in this thread's turn, or straight away when this thread holds the turn
    /// already (see ``nesting(_:)-(()->Subscribers.Demand)``).
    @inlinable
    package func nesting(_ body: () -> Void) {
        if !run(body) {
            body()
        }
    }

    /// A number that identifies the calling thread among the threads alive now.
    @inlinable
    package static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #elseif canImport(Glibc) || canImport(Musl)
        UInt(pthread_self())
        #else
        1
        #endif
    }
}
