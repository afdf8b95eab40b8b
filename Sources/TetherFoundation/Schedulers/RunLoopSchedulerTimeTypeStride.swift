import Foundation

extension RunLoop.SchedulerTimeType {
    /// The interval by which run loop times advance: a number of seconds.
    ///
    /// Integer and floating-point literals are seconds, so `0.5` is half a second.
    ///
    /// Conforms to `SchedulerTimeIntervalConvertible`, `Comparable`, `SignedNumeric`,
    /// `ExpressibleByFloatLiteral`, `Hashable` and `Codable`, as Combine's does.
    public struct Stride: DateSchedulerInterval, Hashable, Codable, Sendable {
        /// The value of this time interval in seconds.
        public var magnitude: TimeInterval

        /// The value of this time interval in seconds.
        public var timeInterval: TimeInterval { magnitude }

        /// Creates a run loop scheduler time interval from the given time interval.
        /// - Parameter timeInterval: A number of seconds.
        public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
    }
}
