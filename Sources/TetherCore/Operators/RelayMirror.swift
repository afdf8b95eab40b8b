/// The children a relay's mirror shows, as the mirror of Combine's subscription for the same
/// operator shows them (OpenCombine's suite records them). The downstream is held for the relay's
/// whole life, so it can be read from any thread.
@usableFromInline
package enum RelayMirror {
    /// No children (`tryMap`, `drop`, `drop(while:)`, `output(in:)`).
    case empty
    /// `downstream` (`tryFilter`, `tryCompactMap`, `prefix(while:)` and its `try` form).
    case downstream
    /// `downstream`, `finished` (whether the stream is over) and `upstreamSubscription` (while
    /// subscribed) (`encode`, `decode`).
    case coder
    /// `downstream`, then the operator's own children, given the relay's status (`tryScan`,
    /// `tryRemoveDuplicates`, whose state lives in their step).
    case downstreamAnd((_ status: Any) -> [Mirror.Child])
}
