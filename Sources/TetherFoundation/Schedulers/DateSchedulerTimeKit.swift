import Foundation
import TetherCore

// Combine declares `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType` (and their
// strides) as distinct types of the same shape, so that overloads and extensions can tell them
// apart. Each is a real nested struct here; these two internal protocols give both of them the
// whole of their behaviour once. A public member of an extension of an internal protocol is a
// public witness for the conforming public type, which is what lets the operators and factory
// methods below serve as the structs' own API.

/// A number of seconds that a `Date`-based scheduler advances by: the shape shared by
/// `RunLoop.SchedulerTimeType.Stride` and `OperationQueue.SchedulerTimeType.Stride`.
@usableFromInline
protocol DateSchedulerInterval: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric,
    ExpressibleByFloatLiteral
where Magnitude == TimeInterval, FloatLiteralType == TimeInterval, IntegerLiteralType == TimeInterval {
    /// The value of this time interval in seconds.
    var magnitude: TimeInterval { get set }

    /// Creates a time interval from a number of seconds.
    init(_ timeInterval: TimeInterval)
}

extension DateSchedulerInterval {
    /// Creates a scheduler time interval from an integer number of seconds.
    /// - Parameter value: A number of seconds.
    @inlinable
    public init(integerLiteral value: TimeInterval) { self.init(value) }

    /// Creates a scheduler time interval from a floating-point number of seconds.
    /// - Parameter value: A number of seconds.
    @inlinable
    public init(floatLiteral value: TimeInterval) { self.init(value) }

    /// Creates a scheduler time interval from a binary integer number of seconds; `nil` when the
    /// integer has no exact `TimeInterval` representation.
    /// - Parameter source: A number of seconds.
    @inlinable
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = TimeInterval(exactly: source) else { return nil }
        self.init(value)
    }

    /// Whether `lhs` is a shorter interval than `rhs`.
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }

    /// The product of the two intervals' numbers of seconds.
    @inlinable
    public static func * (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude * rhs.magnitude) }

    /// The sum of two intervals.
    @inlinable
    public static func + (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude + rhs.magnitude) }

    /// The difference of two intervals.
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> Self { Self(lhs.magnitude - rhs.magnitude) }

    /// Subtracts `rhs` from `lhs`.
    @inlinable
    public static func -= (lhs: inout Self, rhs: Self) { lhs.magnitude -= rhs.magnitude }

    /// Multiplies `lhs` by `rhs`.
    @inlinable
    public static func *= (lhs: inout Self, rhs: Self) { lhs.magnitude *= rhs.magnitude }

    /// Adds `rhs` to `lhs`.
    @inlinable
    public static func += (lhs: inout Self, rhs: Self) { lhs.magnitude += rhs.magnitude }

    /// Converts the specified number of seconds into an interval.
    /// - Parameter s: A number of seconds.
    /// - Returns: The interval.
    @inlinable
    public static func seconds(_ s: Int) -> Self { Self(TimeInterval(s)) }

    /// Converts the specified number of seconds, as a floating-point value, into an interval.
    /// - Parameter s: A number of seconds.
    /// - Returns: The interval.
    @inlinable
    public static func seconds(_ s: Double) -> Self { Self(s) }

    /// Converts the specified number of milliseconds into an interval.
    /// - Parameter ms: A number of milliseconds.
    /// - Returns: The interval.
    @inlinable
    public static func milliseconds(_ ms: Int) -> Self { Self(TimeInterval(ms) / 1_000) }

    /// Converts the specified number of microseconds into an interval.
    /// - Parameter us: A number of microseconds.
    /// - Returns: The interval.
    @inlinable
    public static func microseconds(_ us: Int) -> Self { Self(TimeInterval(us) / 1_000_000) }

    /// Converts the specified number of nanoseconds into an interval.
    /// - Parameter ns: A number of nanoseconds.
    /// - Returns: The interval.
    @inlinable
    public static func nanoseconds(_ ns: Int) -> Self { Self(TimeInterval(ns) / 1_000_000_000) }
}

/// An instant of a `Date`-based scheduler: the shape shared by `RunLoop.SchedulerTimeType` and
/// `OperationQueue.SchedulerTimeType`.
@usableFromInline
protocol DateSchedulerInstant: Strideable where Stride: DateSchedulerInterval {
    /// The date this time represents.
    var date: Date { get set }

    /// Creates a scheduler time for the given date.
    init(_ date: Date)
}

extension DateSchedulerInstant {
    /// Returns the distance to another scheduler time.
    /// - Parameter other: Another scheduler time of the same scheduler.
    /// - Returns: The time interval from this time to `other`, in seconds.
    @inlinable
    public func distance(to other: Self) -> Stride { Stride(other.date.timeIntervalSince(date)) }

    /// Returns this scheduler time advanced by the given interval.
    /// - Parameter n: The interval to advance by, in seconds; negative goes back in time.
    /// - Returns: The scheduler time `n` seconds after this one.
    @inlinable
    public func advanced(by n: Stride) -> Self { Self(date.addingTimeInterval(n.magnitude)) }
}
