import Foundation
import TetherCore

extension RunLoop: Scheduler {
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
        let work = OneShotAction(action)
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
        // Foundation on Linux may keep a fired timer, and its block, alive: the block lets go of
        // the action as it runs it.
        let work = OneShotAction(action)
        let timer = Timer(fire: date.date, interval: 0, repeats: false) { timer in
            work.run()
            timer.invalidate()
        }
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
        let work = OneShotAction(action)
        let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in work.runKeeping() }
        timer.tolerance = tolerance.timeInterval
        add(timer, forMode: .default)
        let kept = OneShotAction { timer.invalidate() }
        return AnyCancellable {
            kept.run()
            work.discard()
        }
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

/// An action that a run loop or queue may hold longer than needed: it lets go of the closure
/// once run (or discarded), so what the closure captures is released on time.
///
/// `@unchecked`: the action is a scheduler's closure, which Combine's `Scheduler` does not
/// require to be `Sendable`; it is run on the scheduler's thread, and held only under ``action``.
final class OneShotAction: @unchecked Sendable {
    private let action: Locked<(() -> Void)?>

    init(_ action: @escaping () -> Void) {
        self.action = Locked(action)
    }

    /// Runs the action once and lets go of it.
    func run() {
        take()?()
    }

    /// Runs the action and keeps it, for repetitions.
    func runKeeping() {
        action.withLock { $0 }?()
    }

    /// Lets go of the action without running it.
    func discard() {
        _ = take()
    }

    private func take() -> (() -> Void)? {
        action.withLock { $0.take() }
    }
}
