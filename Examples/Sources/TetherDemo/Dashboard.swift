import Foundation
import Synchronization
import Tether
import TetherExtras

/// What the dashboard saw, kept outside it so that the checks can tell that nothing more
/// arrives once it is gone.
final class DashboardCounters: Sendable {
    private let counts = Mutex((ticks: 0, changes: 0))

    var ticks: Int { counts.withLock { $0.ticks } }
    var changes: Int { counts.withLock { $0.changes } }

    func tick() { counts.withLock { $0.ticks += 1 } }
    func changed() { counts.withLock { $0.changes += 1 } }
}

/// An owner whose subscriptions end with it: a `Timer` clock and a `NotificationCenter`
/// observer, both bound to its ``lifetime``. Nobody cancels them; releasing the dashboard is
/// enough.
final class Dashboard {
    private let token = Lifetime.Token()
    private let counters: DashboardCounters

    /// Ends when the dashboard is deallocated.
    var lifetime: Lifetime { Lifetime(token) }

    /// Starts the clock on the main run loop, ticking every `interval`, and observes the
    /// store's changes on the main queue.
    init(counters: DashboardCounters, interval: TimeInterval) {
        self.counters = counters
        Timer.publish(every: interval, on: .main, in: .default)
            .autoconnect()
            .sink(weak: self) { dashboard, _ in dashboard.counters.tick() }
            .store(in: lifetime)
        NotificationCenter.default.publisher(for: ItemStore.didChange)
            .receive(on: DispatchQueue.main)
            .sink(weak: self) { dashboard, _ in dashboard.counters.changed() }
            .store(in: lifetime)
    }
}
