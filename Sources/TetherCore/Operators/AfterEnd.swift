/// What a relay whose closure may throw does with a value that arrives after its stream ended (a
/// throw, the downstream's `cancel`, or the upstream's completion). Combine's operators differ
/// here, and Tether follows each one. Every one of them keeps its closure for the relay's life,
/// as Combine's do (CombineX's suite, run against Combine, records `tryCompactMap` keeping its
/// closure after a completion and after a cancel).
@usableFromInline
package enum AfterEnd: Sendable {
    /// The value is ignored (`tryFilter`, `tryCompactMap`, `encode`, `decode`).
    case ignore
    /// The value still goes through the closure to the downstream, whose demand goes back; a
    /// throw fails the downstream again (`tryMap`).
    case deliverAndFailAgain
    /// Like `deliverAndFailAgain`, except that a throw after the end sends nothing (`tryScan`).
    case deliver

    /// Whether a value after the end is ignored.
    @inlinable
    package var ignoresValues: Bool {
        if case .ignore = self { true } else { false }
    }
}
