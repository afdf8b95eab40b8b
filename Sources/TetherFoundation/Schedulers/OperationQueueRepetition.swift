import Foundation
import TetherCore

/// The cancellation of a repeating schedule on an operation queue: it knows the operation of the
/// next run, which each run hands over before it starts, and cancels it.
///
/// The scheduler returns it inside an `AnyCancellable`, as Combine does.
final class OperationQueueRepetition: Cancellable, Sendable {
    private struct State {
        /// The operation of the next run, until cancelled.
        var pending: DelayReadyOperation?
        var isCancelled = false
    }

    private let state = Locked(State())

    /// Records `next` as the operation of the next run, unless the schedule is cancelled.
    /// - Parameter next: The operation of the first run, or of the run after the one starting.
    /// - Returns: `false` when the schedule is cancelled: the starting run does not happen.
    func handOver(to next: DelayReadyOperation) -> Bool {
        let (accepted, previous) = state.withLock { state -> (Bool, DelayReadyOperation?) in
            guard !state.isCancelled else { return (false, nil) }
            defer { state.pending = next }
            return (true, state.pending)
        }
        // The operation handed over from is released after the lock.
        _ = previous
        return accepted
    }

    /// Stops the repetitions: cancels the operation of the next run, so that it leaves its queue
    /// without running.
    func cancel() {
        let pending = state.withLock { state -> DelayReadyOperation? in
            state.isCancelled = true
            return state.pending.take()
        }
        pending?.cancel()
    }

    /// The date of the run after one at `date`: `interval` later, or, when that date passed while
    /// the action ran, the first date a whole number of `interval`s after `date` that is not
    /// before `now`: the dates missed are skipped, as a run loop's repeating timer skips them.
    /// - Parameters:
    ///   - date: The date of the run that has just ended.
    ///   - interval: The time between runs, in seconds.
    ///   - now: The moment the run ended.
    /// - Returns: The date of the next run.
    static func date(after date: Date, every interval: TimeInterval, now: Date) -> Date {
        let next = date.addingTimeInterval(interval)
        guard interval > 0, next < now else { return next }
        let missed = (now.timeIntervalSince(next) / interval).rounded(.up)
        return next.addingTimeInterval(missed * interval)
    }
}
