// Merge note: branch `sched` declares this same type with `RunLoop: Scheduler` (in
// Sources/TetherFoundation/Schedulers/RunLoopScheduler.swift); once both are merged, delete this file.
import Foundation

extension RunLoop {
    /// Options that affect the operation of the run loop scheduler.
    ///
    /// As in Combine, the run loop has no options to set: the type exists so that APIs such as
    /// ``Foundation/Timer/publish(every:tolerance:on:in:options:)`` keep Combine's signatures.
    public struct SchedulerOptions: Sendable {
        internal init() {}
    }
}
