import Dispatch
import Foundation
import Synchronization
import TetherCore

extension OperationQueue: Scheduler {
    /// A type that defines options the operation queue accepts: there are none.
    public struct SchedulerOptions: Sendable {}

    /// The minimum tolerance the operation queue scheduler allows: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// The operation queue's definition of the current moment in time.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Performs the action as an operation on the queue: a `BlockOperation` of the action,
    /// added with `addOperation(_:)`, as Combine does.
    /// - Parameters:
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = RunLoopAction(action)
        addOperation(BlockOperation { work.run() })
    }

    /// Adds the action to the queue as an operation once the specified date has passed.
    /// - Parameters:
    ///   - date: The earliest time to perform the action.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = OneShotAction(action)
        let queue = RunLoopAction { [self] in addOperation { work.run() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, Date().distance(to: date.date))) { queue.run() }
    }

    /// Adds the action to the queue as an operation once the specified date has passed, and
    /// then every `interval`, until cancelled.
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: The leeway of the timer that enqueues the operations.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that stops the repetitions.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = OneShotAction(action)
        let cancelled = OperationQueueCancelFlag()
        let enqueue = RunLoopAction { [self] in
            addOperation {
                if !cancelled.isSet { work.runKeeping() }
            }
        }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { enqueue.run() }
        let delay = max(0, Date().distance(to: date.date))
        timer.schedule(
            deadline: .now() + delay, repeating: interval.timeInterval,
            leeway: .nanoseconds(Int(tolerance.timeInterval * 1_000_000_000)))
        timer.resume()
        let source = UncheckedTimer(timer)
        return AnyCancellable {
            cancelled.set()
            source.timer.cancel()
            work.discard()
        }
    }
}

/// Set once a repeating operation-queue schedule is cancelled, so that operations already
/// enqueued do nothing.
final class OperationQueueCancelFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    var isSet: Bool { flag.load(ordering: .acquiring) }

    func set() { flag.store(true, ordering: .releasing) }
}
