import Foundation

extension OperationQueue {
    /// The scheduler time type the operation queue uses: a `Date`, advanced by
    /// ``OperationQueue/SchedulerTimeType/Stride`` intervals of seconds.
    ///
    /// A type of its own, distinct from `RunLoop.SchedulerTimeType`, as in Combine.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable, DateSchedulerInstant {
        /// The date this type represents.
        public var date: Date

        /// Creates an operation queue scheduler time with the given date.
        /// - Parameter date: The date that the scheduler time represents.
        public init(_ date: Date) { self.date = date }
    }
}
