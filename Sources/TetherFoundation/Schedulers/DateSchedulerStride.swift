import Foundation
import TetherCore

/// The stride shared by the `Date`-based scheduler time types: a number of seconds.
///
/// `RunLoop.SchedulerTimeType.Stride` and `OperationQueue.SchedulerTimeType.Stride` are
/// declared by Combine as two types with the same shape; here they are one implementation
/// behind two names.
public struct DateSchedulerStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
    Hashable, Codable, Sendable
{
    /// Floating-point literals are seconds.
    public typealias FloatLiteralType = TimeInterval
    /// Integer literals are seconds.
    public typealias IntegerLiteralType = TimeInterval
    /// The magnitude is a number of seconds.
    public typealias Magnitude = TimeInterval

    /// The value of this time interval in seconds.
    public var magnitude: TimeInterval

    /// The value of this time interval in seconds.
    public var timeInterval: TimeInterval { magnitude }

    /// Creates a time interval from a number of seconds.
    /// - Parameter timeInterval: A number of seconds.
    public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }

    /// Creates a time interval from an integer literal of seconds.
    /// - Parameter value: A number of seconds.
    public init(integerLiteral value: TimeInterval) { magnitude = value }

    /// Creates a time interval from a floating-point literal of seconds.
    /// - Parameter value: A number of seconds.
    public init(floatLiteral value: TimeInterval) { magnitude = value }

    /// Creates a time interval from a binary integer number of seconds; `nil` when it cannot be
    /// represented exactly.
    /// - Parameter source: A number of seconds.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        magnitude = value
    }

    /// Whether `lhs` is shorter than `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
    /// The product of two intervals.
    public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }
    /// The sum of two intervals.
    public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }
    /// The difference of two intervals.
    public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }
    /// Subtracts `rhs` from `lhs`.
    public static func -= (lhs: inout Self, rhs: Self) { lhs.magnitude -= rhs.magnitude }
    /// Multiplies `lhs` by `rhs`.
    public static func *= (lhs: inout Self, rhs: Self) { lhs.magnitude *= rhs.magnitude }
    /// Adds `rhs` to `lhs`.
    public static func += (lhs: inout Self, rhs: Self) { lhs.magnitude += rhs.magnitude }

    /// An interval of `s` seconds.
    /// - Parameter s: A number of seconds.
    /// - Returns: The interval.
    public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }
    /// An interval of `s` seconds.
    /// - Parameter s: A number of seconds.
    /// - Returns: The interval.
    public static func seconds(_ s: Double) -> Self { Self(s) }
    /// An interval of `ms` milliseconds.
    /// - Parameter ms: A number of milliseconds.
    /// - Returns: The interval.
    public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }
    /// An interval of `us` microseconds.
    /// - Parameter us: A number of microseconds.
    /// - Returns: The interval.
    public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }
    /// An interval of `ns` nanoseconds.
    /// - Parameter ns: A number of nanoseconds.
    /// - Returns: The interval.
    public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }
}

/// The time shared by the `Date`-based scheduler time types.
public struct DateSchedulerTime: Strideable, Codable, Hashable, Sendable {
    /// The date this type represents.
    public var date: Date

    /// Creates a scheduler time for the given date.
    /// - Parameter date: The date to represent.
    public init(_ date: Date) { self.date = date }

    /// Returns the distance to another time.
    /// - Parameter other: Another time.
    /// - Returns: The interval between this time and the provided one.
    public func distance(to other: Self) -> DateSchedulerStride {
        DateSchedulerStride(other.date.timeIntervalSince(date))
    }

    /// Returns this time advanced by the given interval.
    /// - Parameter n: The interval to advance by.
    /// - Returns: The later (or earlier) time.
    public func advanced(by n: DateSchedulerStride) -> Self {
        Self(date.addingTimeInterval(n.magnitude))
    }
}
