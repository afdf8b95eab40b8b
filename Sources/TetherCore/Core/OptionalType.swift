/// `Optional`, for a type that keeps a `Value?` with the optional itself as its generic argument
/// (`LatestSlot<Int?>`, not `LatestSlot<Int>` around an `Int?`).
///
/// Unspecialised code that stores, reads or drops a `Value?` it builds from its own `Value` looks
/// `Optional<Value>` up in the run time's metadata cache each time, several hundred instructions
/// a call; code whose generic argument *is* the optional has that type at hand and looks nothing
/// up (Docs/FastWithoutTheSpecialiser.md, "Optionals as generic arguments, and outputs put in
/// place"). Specialised, the methods inline to what they stand for.
@usableFromInline
package protocol OptionalType {
    associatedtype Wrapped

    /// No value: `Optional.none`, whose case stands for this requirement.
    static var none: Self { get }

    /// Holds `some`: `Optional.init(_:)`.
    init(_ some: Wrapped)

    /// Whether there is no value.
    var isNone: Bool { get }

    /// The value held, which stays; traps when there is none.
    var wrapped: Wrapped { get }

    /// Takes the value held out, leaving none; traps when there is none.
    mutating func takeWrapped() -> Wrapped
}

extension Optional: OptionalType {
    @inlinable
    package var isNone: Bool {
        switch self {
        case .none: true
        case .some: false
        }
    }

    @inlinable
    package var wrapped: Wrapped {
        self!
    }

    @inlinable
    package mutating func takeWrapped() -> Wrapped {
        take()!
    }
}
