import Foundation
import TetherCore

extension RunLoop: Scheduler {
    /// The scheduler time type that the run loop uses: a `Date`, with strides in seconds.
    public typealias SchedulerTimeType = DateSchedulerTime

    /// A set of options that affect the operation of the run loop scheduler: there are none.
    public struct SchedulerOptions: Sendable {}

    /// The minimum tolerance the run loop scheduler allows: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// The run loop scheduler's definition of the current moment in time.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Performs the action the next time the run loop runs, in its default mode.
    /// - Parameters:
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let work = RunLoopAction(action)
        perform { work.run() }
    }

    /// Performs the action on the run loop at some time after the specified date, through a
    /// one-shot timer in the default mode.
    /// - Parameters:
    ///   - date: The earliest time to perform the action.
    ///   - tolerance: The timer's tolerance.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let work = RunLoopAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
    }

    /// Performs the action on the run loop at some time after the specified date, and then
    /// every `interval`, through a repeating timer in the default mode.
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: The timer's tolerance.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that invalidates the timer.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let work = RunLoopAction(action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in work.run() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        let kept = RunLoopAction { timer.invalidate() }
        return AnyCancellable { kept.run() }
    }
}

/// An action handed to a run loop or an operation queue: Combine's `Scheduler` takes
/// non-`Sendable` closures, and the scheduler's contract is what makes running them there safe.
struct RunLoopAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}
