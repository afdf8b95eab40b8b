import Synchronization

/// Whether a subject's values may go straight to the subscriber a subscription keeps for them
/// (``HandOffSubscriptionBase/serial``, or a ``SubjectSink``'s closures), and whether a cancel has
/// left that subscriber for the subscription's turn to let go of.
///
/// Every delivery on the lane happens in the subscription's ``DownstreamTurn``, and so does every
/// release of the subscriber: the turn's gate, which the delivering thread holds anyway, is what
/// keeps the subscriber alive while a value is in flight. A value on the lane therefore costs
/// three loads of this word (before the value, before the turn is given up, after) and no
/// read-modify-write. The protocol, for a cancel on any thread:
///
/// 1. The cancel marks the lane stopped (``stop()``), so no value enters it again.
/// 2. It then releases the subscriber itself if it can take the turn without waiting
///    (``DownstreamTurn/ifFree(_:)``). If this thread holds the turn (a cancel from inside a
///    delivery) or another thread does, it leaves the release to that turn.
/// 3. Every turn of the subscription releases an owed subscriber before it gives the gate up, and
///    looks again once it has: a cancel that marked the lane after the turn's first look found
///    the gate held, and the turn's second look, after its unlock, sees the mark (the unlock
///    and the cancel's attempt on the gate are read-modify-writes of one word, so they are
///    ordered, and the mark precedes the attempt). It then takes the turn if it is free; if it is
///    not, the thread that took it looks when its own turn ends.
///
/// So exactly one turn releases the subscriber, never while a value is in flight on the lane,
/// and at the latest when the last turn that overlapped the cancel ends.
@usableFromInline
package struct SubjectLane: ~Copyable, Sendable {
    @usableFromInline static package var open: UInt8 { 1 }
    @usableFromInline static package var stopped: UInt8 { 2 }
    @usableFromInline static package var released: UInt8 { 4 }

    @usableFromInline
    package let bits = Atomic<UInt8>(0)

    @inlinable
    package init() {}

    /// Demand became unlimited with nothing owed: values may take the lane, until it stops.
    /// From any thread; opening it again changes nothing.
    @inlinable
    package func open() {
        bits.bitwiseOr(Self.open, ordering: .acquiringAndReleasing)
    }

    /// Whether a value may take the lane now. Read in the turn, before each value.
    @inlinable
    package var isOpen: Bool {
        bits.load(ordering: .acquiring) & (Self.open | Self.stopped) == Self.open
    }

    /// Whether the lane has stopped: the subscription completed or was cancelled. Read in the turn,
    /// before a value whose demand was taken earlier goes out.
    @inlinable
    package var isStopped: Bool {
        bits.load(ordering: .acquiring) & Self.stopped != 0
    }

    /// Stops the lane: no value enters it again, and the subscriber is owed a release.
    @inlinable
    package func stop() {
        bits.bitwiseOr(Self.stopped, ordering: .sequentiallyConsistent)
    }

    /// Whether the lane stopped and its subscriber has not been let go yet.
    @inlinable
    package var owesRelease: Bool {
        bits.load(ordering: .sequentiallyConsistent) & (Self.stopped | Self.released) == Self.stopped
    }

    /// Records that the subscriber was let go. Only in the turn.
    @inlinable
    package func markReleased() {
        bits.bitwiseOr(Self.released, ordering: .acquiringAndReleasing)
    }

    /// Runs `release`, letting go of what the lane's side keeps, if a stop left it owed (step 3).
    /// Only in the turn, where nothing is in flight on the lane.
    @inlinable
    package func releaseIfOwed(_ release: () -> Void) {
        guard owesRelease else { return }
        release()
        markReleased()
    }

    /// Runs `body` in `turn` (see ``DownstreamTurn/run(_:)``), then releases what a stop left
    /// owed: before the turn is given up, and again after, for a stop that found the turn taken
    /// once the first look was over (step 3).
    /// - Returns: `false`, without running `body`, when this thread holds the turn already.
    @inlinable
    package func run(_ body: () -> Void, in turn: borrowing DownstreamTurn, release: () -> Void) -> Bool {
        let ran = turn.run {
            body()
            releaseIfOwed(release)
        }
        guard ran else { return false }
        if owesRelease {
            _ = turn.ifFree { releaseIfOwed(release) }
        }
        return true
    }
}
