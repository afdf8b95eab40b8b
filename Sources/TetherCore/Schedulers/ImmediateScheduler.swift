/// A scheduler for performing synchronous actions.
///
/// Use it only for immediate actions: an action scheduled after a date runs at once, the date
/// ignored, and a repeating action runs once.
public struct ImmediateScheduler: Scheduler, Sendable {
    /// The time type used by the immediate scheduler: every instant is the same instant.
    public struct SchedulerTimeType: Strideable, Sendable, Hashable, Codable {
        /// The increment by which the immediate scheduler counts time.
        public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable,
            SchedulerTimeIntervalConvertible, Hashable, Sendable
        {
            /// The type used when evaluating floating-point literals.
            public typealias FloatLiteralType = Double
            /// The type used when evaluating integer literals.
            public typealias IntegerLiteralType = Int
            /// The type used for expressing the stride's magnitude.
            public typealias Magnitude = Int

            /// The value of this time interval.
            public var magnitude: Int

            /// Creates an immediate scheduler time interval from the given time interval.
            /// - Parameter value: The interval.
            public init(_ value: Int) { magnitude = value }

            /// Creates an immediate scheduler time interval from an integer literal.
            /// - Parameter value: The interval.
            public init(integerLiteral value: Int) { magnitude = value }

            /// Creates an immediate scheduler time interval from a floating-point literal,
            /// truncated to an integer.
            /// - Parameter value: The interval.
            public init(floatLiteral value: Double) { magnitude = Int(value) }

            /// Creates an immediate scheduler time interval from a binary integer type; `nil`
            /// when it cannot be represented as an `Int`.
            /// - Parameter source: The interval.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                magnitude = value
            }

            /// Whether `lhs` is shorter than `rhs`.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// The product of two intervals.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
            /// The sum of two intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
            /// The difference of two intervals.
            public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
            /// Subtracts `rhs` from `lhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
            /// Multiplies `lhs` by `rhs`.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude *= rhs.magnitude }
            /// Adds `rhs` to `lhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }

            // The immediate scheduler has no clock, so, as in Combine, an interval given in any
            // unit of time is no interval at all.

            /// A zero interval: the immediate scheduler has no notion of seconds.
            /// - Parameter s: A number of seconds; ignored.
            /// - Returns: A zero interval.
            public static func seconds(_ s: Int) -> Stride { 0 }
            /// A zero interval: the immediate scheduler has no notion of seconds.
            /// - Parameter s: A number of seconds; ignored.
            /// - Returns: A zero interval.
            public static func seconds(_ s: Double) -> Stride { 0 }
            /// A zero interval: the immediate scheduler has no notion of milliseconds.
            /// - Parameter ms: A number of milliseconds; ignored.
            /// - Returns: A zero interval.
            public static func milliseconds(_ ms: Int) -> Stride { 0 }
            /// A zero interval: the immediate scheduler has no notion of microseconds.
            /// - Parameter us: A number of microseconds; ignored.
            /// - Returns: A zero interval.
            public static func microseconds(_ us: Int) -> Stride { 0 }
            /// A zero interval: the immediate scheduler has no notion of nanoseconds.
            /// - Parameter ns: A number of nanoseconds; ignored.
            /// - Returns: A zero interval.
            public static func nanoseconds(_ ns: Int) -> Stride { 0 }
        }

        /// Returns the distance to another immediate scheduler time: always zero.
        /// - Parameter other: The other scheduler time.
        /// - Returns: `0`, as a `Stride`.
        public func distance(to other: SchedulerTimeType) -> Stride { 0 }

        /// Advances the time by the specified amount, which is meaningless here.
        /// - Parameter n: The amount to advance by; ignored.
        /// - Returns: The same, empty, time.
        public func advanced(by n: Stride) -> SchedulerTimeType { self }
    }

    /// A type that defines options accepted by the immediate scheduler: there are none.
    public typealias SchedulerOptions = Never

    /// The shared instance of the immediate scheduler.
    public static let shared = ImmediateScheduler()

    /// The immediate scheduler's definition of the current moment in time.
    public var now: SchedulerTimeType { SchedulerTimeType() }

    /// The minimum tolerance allowed by the immediate scheduler: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Performs the action now, on the calling thread.
    /// - Parameters:
    ///   - options: Ignored: the immediate scheduler has no options.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Performs the action now, ignoring `date`.
    /// - Parameters:
    ///   - date: Ignored.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Performs the action once, now, ignoring `date` and `interval`.
    /// - Parameters:
    ///   - date: Ignored.
    ///   - interval: Ignored.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    /// - Returns: A cancellable with nothing left to cancel.
    @discardableResult
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        action()
        return Subscriptions.empty
    }
}
