import Dispatch
import TetherCore

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, Sendable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        /// - Parameter time: The dispatch time to represent.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// Creates a dispatch queue time type instance from a decoder.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
        }

        /// Encodes this dispatch queue time type instance: its uptime in nanoseconds.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// Returns the distance to another dispatch queue time.
        /// - Parameter other: Another dispatch queue time.
        /// - Returns: The time interval between this time and the provided time.
        ///
        /// A distance too long for an `Int` of nanoseconds (to or from `distantFuture`, say) is
        /// `.nanoseconds(.max)` whichever way it runs, as in Combine.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = dispatchTime.uptimeNanoseconds
            let end = other.dispatchTime.uptimeNanoseconds
            let length = end >= start ? end - start : start - end
            guard let nanoseconds = Int(exactly: length) else { return .nanoseconds(.max) }
            return .nanoseconds(end >= start ? nanoseconds : -nanoseconds)
        }

        /// Returns a dispatch queue scheduler time calculated by advancing this instance's time
        /// by the given interval.
        /// - Parameter n: A time interval to advance.
        /// - Returns: A dispatch queue time advanced by the given interval from this
        ///   instance's time.
        ///
        /// As in Combine, a time past `Int.max` nanoseconds is `distantFuture`, and a time before
        /// the first nanosecond is the first nanosecond.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            let uptime = dispatchTime.uptimeNanoseconds
            let step = UInt64(n.magnitude.magnitude)
            if n.magnitude < 0 {
                let earlier = uptime > step ? uptime - step : 1
                return SchedulerTimeType(DispatchTime(uptimeNanoseconds: Swift.max(1, earlier)))
            }
            let (later, overflow) = uptime.addingReportingOverflow(step)
            guard !overflow, later <= UInt64(Int.max) else { return SchedulerTimeType(.distantFuture) }
            return SchedulerTimeType(DispatchTime(uptimeNanoseconds: later))
        }

        /// Hashes the uptime.
        /// - Parameter hasher: The hasher to use.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.uptimeNanoseconds)
        }

        /// Whether two times are the same instant.
        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
        }

        /// A type that represents the distance between two values: nanoseconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable, Sendable
        {
            /// If created via floating point literal, the value is converted to nanoseconds
            /// via multiplication.
            public typealias FloatLiteralType = Double
            /// Nanoseconds, same as `DispatchTimeInterval.nanoseconds`.
            public typealias IntegerLiteralType = Int
            /// A type that can represent the absolute value of any possible value of the
            /// conforming type.
            public typealias Magnitude = Int

            /// The value of this time interval in nanoseconds.
            public var magnitude: Int

            /// A `DispatchTimeInterval` created with the value of this type in nanoseconds.
            public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

            /// Creates a dispatch queue time interval from an integer literal of seconds.
            /// - Parameter value: A number of seconds.
            public init(integerLiteral value: Int) {
                magnitude =
                    value.multipliedReportingOverflow(by: 1_000_000_000).overflow
                    ? (value < 0 ? Int.min : Int.max) : value * 1_000_000_000
            }

            /// Creates a dispatch queue time interval from a floating-point literal of seconds.
            /// - Parameter value: A number of seconds.
            public init(floatLiteral value: Double) {
                self.init(value)
            }

            /// Creates a dispatch queue time interval from a number of seconds.
            /// - Parameter timeInterval: A number of seconds.
            public init(_ timeInterval: Double) {
                let nanoseconds = timeInterval * 1_000_000_000
                magnitude =
                    nanoseconds >= Double(Int.max) ? .max : nanoseconds <= Double(Int.min) ? .min : Int(nanoseconds)
            }

            /// Creates a dispatch queue time interval from the given dispatch time interval.
            /// - Parameter timeInterval: A dispatch time interval.
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self = .seconds(s)
                case .milliseconds(let ms): self = .milliseconds(ms)
                case .microseconds(let us): self = .microseconds(us)
                case .nanoseconds(let ns): magnitude = ns
                case .never: magnitude = .max
                @unknown default: magnitude = .max
                }
            }

            /// Creates a dispatch queue time interval from a binary integer number of seconds,
            /// as the integer literal initializer does; `nil` when its nanoseconds do not fit an
            /// `Int`.
            /// - Parameter source: A number of seconds.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let seconds = Int(exactly: source) else { return nil }
                let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
                guard !overflow else { return nil }
                magnitude = nanoseconds
            }

            private enum CodingKeys: String, CodingKey {
                case nanoseconds = "_nanoseconds"
            }

            /// Creates a dispatch queue time interval from a decoder: Combine's form, a keyed
            /// container holding the nanoseconds under `_nanoseconds`.
            /// - Parameter decoder: The decoder to read from.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                magnitude = try container.decode(Int.self, forKey: .nanoseconds)
            }

            /// Encodes this interval in Combine's form: its nanoseconds under `_nanoseconds`.
            /// - Parameter encoder: The encoder to write to.
            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(magnitude, forKey: .nanoseconds)
            }

            private init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            /// The interval in seconds.
            private var seconds: Double { Double(magnitude) / 1_000_000_000 }

            private static func scaled(_ value: Int, by factor: Int) -> Stride {
                let (result, overflow) = value.multipliedReportingOverflow(by: factor)
                return Stride(nanoseconds: overflow ? (value < 0 ? .min : .max) : result)
            }

            /// Whether `lhs` is shorter than `rhs`.
            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
            /// The product of two intervals, taken in seconds (so the product of two intervals
            /// under a second is shorter than either, and one of nanoseconds rounds to zero).
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.seconds * rhs.seconds) }
            /// The sum of two intervals.
            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: lhs.magnitude + rhs.magnitude)
            }
            /// The difference of two intervals.
            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(nanoseconds: lhs.magnitude - rhs.magnitude)
            }
            /// Subtracts `rhs` from `lhs`.
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs.magnitude -= rhs.magnitude }
            /// Multiplies `lhs` by `rhs`, in seconds as ``*(_:_:)``.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
            /// Adds `rhs` to `lhs`.
            public static func += (lhs: inout Stride, rhs: Stride) { lhs.magnitude += rhs.magnitude }

            /// An interval of `s` seconds.
            /// - Parameter s: A number of seconds.
            /// - Returns: The interval.
            public static func seconds(_ s: Int) -> Stride { scaled(s, by: 1_000_000_000) }
            /// An interval of `s` seconds.
            /// - Parameter s: A number of seconds.
            /// - Returns: The interval.
            public static func seconds(_ s: Double) -> Stride { Stride(s) }
            /// An interval of `ms` milliseconds.
            /// - Parameter ms: A number of milliseconds.
            /// - Returns: The interval.
            public static func milliseconds(_ ms: Int) -> Stride { scaled(ms, by: 1_000_000) }
            /// An interval of `us` microseconds.
            /// - Parameter us: A number of microseconds.
            /// - Returns: The interval.
            public static func microseconds(_ us: Int) -> Stride { scaled(us, by: 1_000) }
            /// An interval of `ns` nanoseconds.
            /// - Parameter ns: A number of nanoseconds.
            /// - Returns: The interval.
            public static func nanoseconds(_ ns: Int) -> Stride { Stride(nanoseconds: ns) }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    ///
    /// Unchecked `Sendable`: `DispatchWorkItemFlags` is an immutable option set that Dispatch on
    /// Linux has not marked.
    public struct SchedulerOptions: @unchecked Sendable {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS
        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags
        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        /// Creates scheduler options.
        /// - Parameters:
        ///   - qos: The quality of service.
        ///   - flags: The work item flags.
        ///   - group: The group to enter for each action.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// The dispatch queue scheduler's minimum tolerance: zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// The dispatch queue scheduler's definition of the current moment in time.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Performs the action at the next possible opportunity, asynchronously on the queue.
    /// - Parameters:
    ///   - options: Quality of service, flags and group for the work item.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let options = options ?? SchedulerOptions()
        let work = UncheckedAction(action)
        async(group: options.group, qos: options.qos, flags: options.flags) { work.run() }
    }

    /// Performs the action on the queue at some time after the specified date.
    /// - Parameters:
    ///   - date: The earliest time to perform the action.
    ///   - tolerance: How late the action may run; Dispatch on Linux does not use it.
    ///   - options: Quality of service and flags for the work item.
    ///   - action: The action to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let options = options ?? SchedulerOptions()
        let work = UncheckedAction(action)
        asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) { work.run() }
    }

    /// Performs the action on the queue at some time after the specified date, and then every
    /// `interval`, through a dispatch timer source.
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: The leeway the timer may take.
    ///   - options: Quality of service and flags for the timer's handler.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that cancels the timer.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let options = options ?? SchedulerOptions()
        let timer = DispatchSource.makeTimerSource(queue: self)
        let work = UncheckedAction(action)
        timer.setEventHandler(qos: options.qos, flags: options.flags) { work.run() }
        timer.schedule(deadline: date.dispatchTime, repeating: interval.timeInterval, leeway: tolerance.timeInterval)
        timer.resume()
        let source = UncheckedTimer(timer)
        return AnyCancellable { source.timer.cancel() }
    }
}

/// An action handed to Dispatch: Combine's `Scheduler` takes non-`Sendable` closures, and the
/// scheduler's contract is what makes running them on the queue safe.
struct UncheckedAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        self.run = run
    }
}

/// A dispatch timer source kept by a cancellable. `@unchecked`: Dispatch sources are thread-safe,
/// but `DispatchSourceTimer` is not marked `Sendable` on Linux.
struct UncheckedTimer: @unchecked Sendable {
    let timer: any DispatchSourceTimer

    init(_ timer: any DispatchSourceTimer) {
        self.timer = timer
    }
}
