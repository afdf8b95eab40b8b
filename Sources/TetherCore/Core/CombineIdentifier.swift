import Synchronization

/// A unique identifier for identifying publisher streams.
///
/// Subscriptions and subscribers that are classes identify themselves by their object identity;
/// value types get a fresh, process-unique identifier from ``init()``.
public struct CombineIdentifier: Hashable, Sendable, CustomStringConvertible {
    @usableFromInline
    internal let rawValue: UInt64

    @usableFromInline
    internal static let counter = Atomic<UInt64>(1)

    /// Creates a unique Combine identifier.
    @inlinable
    public init() {
        rawValue = Self.counter.add(1, ordering: .relaxed).oldValue
    }

    /// Creates a Combine identifier, using the bit pattern of the provided object.
    /// - Parameter obj: The object whose identity the identifier takes.
    @inlinable
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    /// The identifier as a hexadecimal number, like `0x600000c8c000`.
    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

/// A protocol for uniquely identifying publisher streams.
///
/// Class types get an implementation from their object identity, so only value-type subscribers
/// need to store a ``CombineIdentifier``.
public protocol CustomCombineIdentifierConvertible {
    /// A unique identifier for publisher streams.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// A unique identifier taken from the object's identity.
    @inlinable
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
