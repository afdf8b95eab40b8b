/// Whether publishers of type `P` are `Just`s, or `Just`s given a failure type: publishers whose
/// one value is at hand, which the flattening operators take without subscribing (as they take an
/// erased `Just`'s, see ``valueOfErasedJust(_:_:)``).
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

/// How publishers of type `P` are `AnyPublisher`s, or `nil` when they are not.
///
/// Ask once, when a subscription is made, as for ``isJust(_:)``.
@inlinable
package func erasedInnerShape<P: Publisher>(_: P.Type) -> ErasedInnerShape? {
    if P.self == AnyPublisher<P.Output, P.Failure>.self { return .anyPublisher }
    if P.self == Publishers.SetFailureType<AnyPublisher<P.Output, Never>, P.Failure>.self {
        return .anyPublisherGivenFailure
    }
    return nil
}

/// The value of the `Just` (or `Just` given a failure type) that `publisher` erases, or `nil` when
/// it erases another publisher; `shape` is what ``erasedInnerShape(_:)`` said of its type.
///
/// The box decided it once, where the `Just` was erased. An `AnyPublisher` is one reference to its
/// box, and `SetFailureType` stores its upstream and nothing else, so the box is read where it
/// lies rather than cast, as ``valueOfJust(_:)`` reads a `Just`. It is read unretained: `publisher`
/// holds it for the whole call, and loading it as a reference would retain and release it, two
/// atomic operations for every inner.
@inlinable
package func valueOfErasedJust<P: Publisher>(_ publisher: P, _ shape: ErasedInnerShape) -> P.Output? {
    let box = withUnsafeBytes(of: publisher) { $0.load(as: UnsafeRawPointer.self) }
    switch shape {
    case .anyPublisher:
        return Unmanaged<ErasedPublisherBox<P.Output, P.Failure>>.fromOpaque(box)
            ._withUnsafeGuaranteedRef { $0.valueAtHand?($0) }
    case .anyPublisherGivenFailure:
        return Unmanaged<ErasedPublisherBox<P.Output, Never>>.fromOpaque(box)
            ._withUnsafeGuaranteedRef { $0.valueAtHand?($0) }
    }
}
