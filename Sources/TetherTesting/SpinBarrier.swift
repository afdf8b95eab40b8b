import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A reusable barrier that releases a fixed number of threads together, for race tests.
///
/// Threads spin rather than sleep, so they leave the barrier within nanoseconds of each other
/// and the code after it really does run at the same time. After a few thousand spins a waiting
/// thread yields its core on every turn, so a machine with fewer cores than parties still makes
/// progress. The barrier can be reused round after round.
///
/// ```swift
/// let barrier = SpinBarrier(parties: 2)
/// // on each of two threads:
/// barrier.arriveAndWait()
/// subscription.request(.max(1))   // both requests race
/// ```
public final class SpinBarrier: Sendable {
    private let parties: Int
    private let arrived = Atomic<Int>(0)
    private let generation = Atomic<Int>(0)

    /// Creates a barrier for the given number of threads.
    /// - Parameter parties: How many threads must arrive before any is released; at least 1.
    public init(parties: Int) {
        precondition(parties >= 1, "A barrier needs at least one party: \(parties)")
        self.parties = parties
    }

    /// Waits until `parties` threads have arrived, then returns on all of them.
    public func arriveAndWait() {
        let round = generation.load(ordering: .acquiring)
        if arrived.add(1, ordering: .acquiringAndReleasing).newValue == parties {
            arrived.store(0, ordering: .relaxed)
            // Releasing the new generation publishes the reset count to the next round.
            generation.add(1, ordering: .releasing)
            return
        }
        var spins = 0
        while generation.load(ordering: .acquiring) == round {
            spins += 1
            if spins > 4_000 {
                sched_yield()
            }
        }
    }
}
