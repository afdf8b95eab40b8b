import Dispatch
import Foundation
import Synchronization
import Tether

/// A dispatch queue as a scheduler that counts the one-off actions handed to it and those it has
/// run: the soak reads from it how much scheduled work is waiting (a backlog, which a loaded
/// machine builds and then works off) and whether anything still schedules once every chain that
/// schedules has been cancelled (a subscription that outlived its cancel).
final class CountingScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    let queue: DispatchQueue
    private let scheduled = Atomic<Int>(0)
    private let ran = Atomic<Int>(0)

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// The one-off actions handed over so far.
    var scheduledCount: Int { scheduled.load(ordering: .relaxed) }

    /// The one-off actions handed over and not yet run.
    var pendingCount: Int { scheduled.load(ordering: .relaxed) - ran.load(ordering: .relaxed) }

    var now: SchedulerTimeType { queue.now }
    var minimumTolerance: SchedulerTimeType.Stride { queue.minimumTolerance }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduled.add(1, ordering: .relaxed)
        queue.schedule(options: options) {
            action()
            self.ran.add(1, ordering: .relaxed)
        }
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        scheduled.add(1, ordering: .relaxed)
        queue.schedule(after: date, tolerance: tolerance, options: options) {
            action()
            self.ran.add(1, ordering: .relaxed)
        }
    }

    /// Repeating actions are timers, cancelled with the chain that made them; they are not counted.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        queue.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}
