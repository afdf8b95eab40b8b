import Dispatch
import Foundation
import TetherCore

/// The operation that carries an action scheduled on an operation queue for a later date, as
/// Combine's: the queue holds it from the moment the action is scheduled, and it becomes ready
/// only at the date.
///
/// Not a `BlockOperation` and not asynchronous; `cancel()` makes it a `Cancellable`. It runs its
/// action once: `main()` lets go of the action, so running it again does nothing. An operation
/// of a repeating schedule (one given a ``Repetition``) adds the next one to the queue before it
/// runs the action, and sets that one to become ready once the action has returned.
///
/// An `OperationQueue` looks again at an operation that was not ready only when told so, through
/// the `isReady` key-value notification: swift-corelibs-foundation schedules on
/// `didChangeValue(forKey: "isReady")` and on nothing else, so ``becomeReady()`` sends it. A
/// cancelled operation is ready at once, so that its queue lets go of it without waiting for its
/// date, as `Operation` does for one waiting on dependencies; Combine's stays in the queue until
/// its date.
///
/// `@unchecked Sendable`: the action, the readiness and the repetition live in `state`, touched
/// only under its lock; the action is a scheduler's closure, run by the queue the operation is in.
final class DelayReadyOperation: Operation, Cancellable, @unchecked Sendable {
    /// What an operation of a repeating schedule hands on to the next one.
    struct Repetition {
        /// The queue the next operation goes to.
        let queue: OperationQueue
        /// The time between runs, in seconds.
        let interval: TimeInterval
        /// The schedule's cancellation: it knows which operation is pending.
        let schedule: OperationQueueRepetition
    }

    private struct State {
        /// `nil` once run or cancelled.
        var action: (() -> Void)?
        /// The date at which the operation becomes ready, once set.
        var date: Date?
        var dateHasCome = false
        /// `nil` for an action scheduled once, and once run or cancelled.
        var repetition: Repetition?
    }

    /// The one serial queue on which every delayed operation's date comes, as Combine's.
    private static let clock = DispatchQueue(label: "Tether.OperationQueue.DelayReadyOperation")

    private let state: Locked<State>

    /// Creates an operation that runs `action` once it is ready.
    /// - Parameters:
    ///   - action: The action to run.
    ///   - repetition: For a repeating schedule, what the next operation needs.
    init(_ action: @escaping () -> Void, repetition: Repetition? = nil) {
        state = Locked(State(action: action, repetition: repetition))
        super.init()
    }

    /// Ready once the date has come (and any dependency has finished), or once cancelled.
    override var isReady: Bool {
        guard super.isReady else { return false }
        return state.withLock { $0.dateHasCome } || isCancelled
    }

    /// Makes the operation become ready at `date`, or at once if the date has passed. Called
    /// after the operation is in its queue: swift-corelibs-foundation reads `isReady` as it adds
    /// an operation, and a notification sent meanwhile could be lost.
    /// - Parameter date: The date to become ready at.
    func becomeReady(at date: Date) {
        state.withLock { $0.date = date }
        weak let operation = self
        Self.clock.asyncAfter(deadline: .now() + max(0, date.timeIntervalSinceNow)) {
            operation?.becomeReady()
        }
    }

    private func becomeReady() {
        willChangeValue(forKey: "isReady")
        state.withLock { $0.dateHasCome = true }
        didChangeValue(forKey: "isReady")
    }

    /// Runs the action, once. For a repeating schedule not yet cancelled, first adds the next
    /// operation to the queue, and once the action has returned sets it to become ready at the
    /// schedule's next date.
    override func main() {
        let (action, date, repetition) = state.withLock { ($0.action.take(), $0.date, $0.repetition.take()) }
        guard let action else { return }
        guard let repetition else {
            action()
            return
        }
        let next = DelayReadyOperation(action, repetition: repetition)
        // A cancel that came after this operation took its action and before this run stops it.
        guard repetition.schedule.handOver(to: next) else { return }
        repetition.queue.addOperation(next)
        action()
        next.becomeReady(
            at: OperationQueueRepetition.date(after: date ?? Date(), every: repetition.interval, now: Date()))
    }

    /// Lets go of the action and of the repetition, then cancels the operation; a cancelled
    /// operation that has not started finishes without running.
    override func cancel() {
        // What the action captures is released here, after the lock.
        _ = state.withLock { ($0.action.take(), $0.repetition.take()) }
        super.cancel()
    }
}
