import Foundation
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

    /// Adds the action to the queue at once, as an operation that becomes ready at the specified
    /// date, as Combine does.
    ///
    /// The operation is not a `BlockOperation`; it is `Cancellable`, and cancelling it (or the
    /// queue's `cancelAllOperations()`) drops the action. Running it again does nothing.
    /// - Parameters:
    ///   - date: The earliest time to perform the action.
    ///   - tolerance: Ignored, as in Combine.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let operation = DelayReadyOperation(action)
        addOperation(operation)
        operation.becomeReady(at: date.date)
    }

    /// Performs the action at the specified date, and then every `interval`, until cancelled.
    ///
    /// As in Combine, the queue gets at once one operation, not ready until `date`, and then one
    /// more per run. Each run adds the next run's operation before it performs the action, and
    /// once the action has returned sets that operation to become ready `interval` after the
    /// run's date. Runs never overlap: the dates an action outlasts are skipped, as a run loop's
    /// repeating timer skips them.
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: Ignored, as in Combine.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    /// - Returns: An `AnyCancellable` that stops the repetitions: the pending operation is
    ///   cancelled and leaves the queue without running.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let repetition = OperationQueueRepetition()
        let operation = DelayReadyOperation(
            action, repetition: .init(queue: self, interval: interval.timeInterval, schedule: repetition))
        _ = repetition.handOver(to: operation)
        addOperation(operation)
        operation.becomeReady(at: date.date)
        return AnyCancellable(repetition)
    }
}
