/// A protocol that provides a scheduler with an expression for relative time.
public protocol SchedulerTimeIntervalConvertible {
    /// Converts the specified number of seconds into an instance of this scheduler time type.
    /// - Parameter s: A number of seconds.
    /// - Returns: The interval.
    static func seconds(_ s: Int) -> Self

    /// Converts the specified number of seconds, as a floating-point value, into an instance of
    /// this scheduler time type.
    /// - Parameter s: A number of seconds.
    /// - Returns: The interval.
    static func seconds(_ s: Double) -> Self

    /// Converts the specified number of milliseconds into an instance of this scheduler time
    /// type.
    /// - Parameter ms: A number of milliseconds.
    /// - Returns: The interval.
    static func milliseconds(_ ms: Int) -> Self

    /// Converts the specified number of microseconds into an instance of this scheduler time
    /// type.
    /// - Parameter us: A number of microseconds.
    /// - Returns: The interval.
    static func microseconds(_ us: Int) -> Self

    /// Converts the specified number of nanoseconds into an instance of this scheduler time
    /// type.
    /// - Parameter ns: A number of nanoseconds.
    /// - Returns: The interval.
    static func nanoseconds(_ ns: Int) -> Self
}
