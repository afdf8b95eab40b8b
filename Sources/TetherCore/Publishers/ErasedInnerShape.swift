/// How an inner publisher type is an `AnyPublisher`, which may erase a `Just` whose value is at
/// hand (see ``valueOfErasedJust(_:_:)``).
@usableFromInline
package enum ErasedInnerShape {
    /// An `AnyPublisher`.
    case anyPublisher
    /// An `AnyPublisher` that never fails, given a failure type (what `flatMap` makes of an
    /// erased inner that never fails under an upstream that can).
    case anyPublisherGivenFailure
}
