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
