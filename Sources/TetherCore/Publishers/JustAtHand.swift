/// Whether publishers of type `P` are `Just`s, or `Just`s given a failure type: publishers whose
/// one value is at hand, which the flattening operators take without subscribing.
///
/// Ask once, when a subscription is made, not per value: unspecialised, naming `Just<P.Output>`
/// looks the type up in the run time's metadata cache (see Docs/FastWithoutTheSpecialiser.md).
@inlinable
package func isJust<P: Publisher>(_: P.Type) -> Bool {
    P.self == Just<P.Output>.self || P.self == Publishers.SetFailureType<Just<P.Output>, P.Failure>.self
}

/// The value of `publisher`, whose type ``isJust(_:)`` said is a `Just` or a `Just` given a
/// failure type.
///
/// Both store that value and nothing else (`Just.output`, `SetFailureType.upstream`), so it is
/// read where it lies: a cast to `Just<P.Output>` would do the same, but would look that type up
/// for every value when unspecialised; `P.Output` is at hand.
@inlinable
package func valueOfJust<P: Publisher>(_ publisher: P) -> P.Output {
    withUnsafeBytes(of: publisher) { $0.load(as: P.Output.self) }
}
