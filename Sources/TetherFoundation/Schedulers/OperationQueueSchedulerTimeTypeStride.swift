import Foundation

extension OperationQueue.SchedulerTimeType {
    /// The interval by which operation queue times advance: a number of seconds.
    ///
    /// Integer and floating-point literals are seconds, so `0.5` is half a second.
    ///
    /// Conforms to `SchedulerTimeIntervalConvertible`, `Comparable`, `SignedNumeric`,
    /// `ExpressibleByFloatLiteral`, `Hashable` and `Codable`, as Combine's does.
    public struct Stride: DateSchedulerInterval, Hashable, Codable, Sendable {
        /// The value of this time interval, in seconds.
        public var magnitude: TimeInterval

        /// The value of this time interval, in seconds.
        public var timeInterval: TimeInterval { magnitude }

        /// Creates a stride using the specified time interval.
        /// - Parameter timeInterval: A number of seconds.
        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
    }
}
