import Foundation

extension RunLoop {
    /// The scheduler time type that the run loop uses: a `Date`, advanced by
    /// ``RunLoop/SchedulerTimeType/Stride`` intervals of seconds.
    ///
    /// A type of its own, distinct from `OperationQueue.SchedulerTimeType`, as in Combine.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable, DateSchedulerInstant {
        /// The date this type represents.
        public var date: Date

        /// Initializes a run loop scheduler time with the given date.
        /// - Parameter date: The date to initialize the run loop scheduler time with.
        public init(_ date: Date) { self.date = date }
    }
}
