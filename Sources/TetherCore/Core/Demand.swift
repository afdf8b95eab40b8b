extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the
    /// subscription.
    ///
    /// Arithmetic follows Combine: adding to or multiplying `.unlimited` stays `.unlimited`, a
    /// sum or product too large for `Int` becomes `.unlimited`, and subtraction never goes below
    /// `.none` (subtracting from `.unlimited` leaves it `.unlimited`; subtracting a negative
    /// integer past `Int.max` gives `.none`).
    @frozen
    public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable,
        CustomStringConvertible
    {
        /// `0 ... Int.max` for a finite demand, `UInt(Int.max) + 1` for unlimited.
        @usableFromInline
        internal let rawValue: UInt

        @inlinable
        internal init(rawValue: UInt) {
            self.rawValue = min(rawValue, Demand.unlimitedRawValue)
        }

        // The constants are computed and inlinable, not stored: a stored `static let` is reached
        // from another module through an accessor that checks its one-time initialisation, a call
        // on every value's path wherever demand is counted.
        @inlinable
        internal static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

        /// A request for as many values as the publisher can produce.
        @inlinable
        public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

        /// A request for no elements from the publisher.
        ///
        /// This is equivalent to `Demand.max(0)`.
        @inlinable
        public static var none: Demand { Demand(rawValue: 0) }

        /// Creates a demand for the given maximum number of elements.
        ///
        /// The publisher is free to send fewer than the requested maximum number of elements.
        /// - Parameter value: The maximum number of elements; traps when negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            precondition(value >= 0, "Demand must not be negative: max(\(value))")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` if the demand is `.unlimited`.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
        }

        /// `true` when this demand is `.unlimited`.
        @inlinable
        internal var isUnlimited: Bool { rawValue == Demand.unlimitedRawValue }

        /// A textual representation: `unlimited` or `max(n)`.
        public var description: String {
            if let max { return "max(\(max))" }
            return "unlimited"
        }

        // MARK: Addition

        /// Returns the result of adding two demands; `.unlimited` when either is, or when the
        /// sum exceeds `Int.max`.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            // Two finite demands sum to at most `2 * Int.max`, which `UInt` holds (the
            // initialiser clamps it to `.unlimited`); only an `.unlimited` side can overflow.
            let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
            return overflow ? .unlimited : Demand(rawValue: sum)
        }

        /// Adds two demands, and assigns the result to the first demand.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Returns the result of adding an integer to a demand.
        ///
        /// `.unlimited` stays `.unlimited`; a sum beyond `Int.max` becomes `.unlimited`; a
        /// negative integer subtracts, never below `.none`.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            guard let count = lhs.max else { return lhs }
            let (sum, overflow) = count.addingReportingOverflow(rhs)
            if overflow { return .unlimited }
            return sum < 0 ? .none : Demand(rawValue: UInt(sum))
        }

        /// Adds an integer to a demand, and assigns the result to the demand.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        // MARK: Subtraction

        /// Returns the result of subtracting one demand from another.
        ///
        /// Subtracting from `.unlimited` leaves `.unlimited`; subtracting `.unlimited` from a
        /// finite demand, or more than it holds, gives `.none`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs.isUnlimited { return lhs }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Subtracts one demand from another, and assigns the result to the first demand.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        /// Returns the result of subtracting an integer from a demand.
        ///
        /// `.unlimited` stays `.unlimited`; a finite result is never below `.none`. A negative
        /// integer adds, but a difference beyond `Int.max` gives `.none`, as in Combine
        /// (`.max(Int.max) - (-1) == .none`), not `.unlimited`.
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            guard let count = lhs.max else { return lhs }
            let (difference, overflow) = count.subtractingReportingOverflow(rhs)
            return overflow || difference < 0 ? .none : Demand(rawValue: UInt(difference))
        }

        /// Subtracts an integer from a demand, and assigns the result to the demand.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        // MARK: Multiplication

        /// Returns the result of multiplying a demand by an integer.
        ///
        /// `.unlimited` stays `.unlimited`; a product beyond `Int.max` becomes `.unlimited`.
        /// Traps when `rhs` is negative.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            precondition(rhs >= 0, "Demand must not be multiplied by a negative number: \(rhs)")
            if lhs.isUnlimited { return lhs }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow ? .unlimited : Demand(rawValue: product)
        }

        /// Multiplies a demand by an integer, and assigns the result to the demand.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        // MARK: Comparison with demands

        /// Returns whether the first demand requests fewer elements than the second;
        /// `.unlimited` is greater than every finite demand.
        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// Returns whether the first demand requests fewer or the same number of elements as
        /// the second.
        @inlinable
        public static func <= (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue <= rhs.rawValue
        }

        /// Returns whether the first demand requests more elements than the second.
        @inlinable
        public static func > (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue > rhs.rawValue
        }

        /// Returns whether the first demand requests more or the same number of elements as
        /// the second.
        @inlinable
        public static func >= (lhs: Demand, rhs: Demand) -> Bool {
            lhs.rawValue >= rhs.rawValue
        }

        // MARK: Comparison with integers

        /// Returns whether a demand requests exactly the given number of elements;
        /// `.unlimited` matches no integer.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            rhs >= 0 && lhs.rawValue == UInt(rhs)
        }

        /// Returns whether a demand doesn't request exactly the given number of elements.
        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool {
            !(lhs == rhs)
        }

        /// Returns whether a given number of elements matches the demand.
        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool {
            rhs == lhs
        }

        /// Returns whether a given number of elements doesn't match the demand.
        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool {
            !(rhs == lhs)
        }

        /// Returns whether a demand requests more than the given number of elements;
        /// always `true` for `.unlimited`.
        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool {
            rhs < 0 || lhs.rawValue > UInt(rhs)
        }

        /// Returns whether a demand requests at least the given number of elements.
        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool {
            rhs < 0 || lhs.rawValue >= UInt(rhs)
        }

        /// Returns whether a demand requests fewer than the given number of elements;
        /// always `false` for `.unlimited`.
        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            !(lhs >= rhs)
        }

        /// Returns whether a demand requests no more than the given number of elements.
        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool {
            !(lhs > rhs)
        }

        /// Returns whether a given number of elements is fewer than the demand.
        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool {
            rhs > lhs
        }

        /// Returns whether a given number of elements is no more than the demand.
        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool {
            rhs >= lhs
        }

        /// Returns whether a given number of elements is more than the demand.
        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool {
            rhs < lhs
        }

        /// Returns whether a given number of elements is at least the demand.
        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool {
            rhs <= lhs
        }

        // MARK: Codable

        /// Creates a demand from a decoder's single unsigned integer value.
        /// - Parameter decoder: The decoder to read from.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self.init(rawValue: try container.decode(UInt.self))
        }

        /// Encodes the demand as a single unsigned integer value.
        /// - Parameter encoder: The encoder to write to.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
