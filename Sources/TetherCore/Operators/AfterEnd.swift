/// What a relay whose closure may throw does with a value that arrives after its stream ended (a
/// throw, the downstream's `cancel`, or the upstream's completion). Combine's operators differ
/// here, and Tether follows each one.
@usableFromInline
package enum AfterEnd: Sendable {
    /// The value is ignored, and the closure is let go of when the stream ends (`tryFilter`,
    /// `tryCompactMap`, `tryRemoveDuplicates`, `encode`, `decode`).
    case ignore
    /// The value still goes through the closure to the downstream, whose demand goes back; a
    /// throw fails the downstream again, and the closure is kept for the relay's life
    /// (`tryMap`).
    case deliverAndFailAgain
    /// Like `deliverAndFailAgain`, except that a throw after the end sends nothing (`tryScan`).
    case deliver

    /// Whether the closure is let go of when the stream ends (and a value after it ignored).
    @inlinable
    package var releasesTheClosure: Bool {
        if case .ignore = self { true } else { false }
    }
}
