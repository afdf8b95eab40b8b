/// What a ``Reducer``'s serial path folds with and into, in one value: the base class keeps it
/// (``HandOffSubscriptionBase``), so the reducer's `deinit`, which runs unspecialised, looks up no
/// type to destroy it. Read and written on the upstream's serial path, or by the side the
/// reducer's hand-off names.
@usableFromInline
internal struct ReducerSerial<Input, Output, UpstreamFailure: Error, DownstreamFailure: Error> {
    /// Folds one value into the result; throws only for the `try` operators.
    @usableFromInline
    internal typealias Step = (inout Output?, Input) throws(DownstreamFailure) -> ReductionStep

    /// The operator's closures; `nil` once released.
    @usableFromInline
    internal struct Owned {
        @usableFromInline let step: Step
        /// Turns an upstream failure into the downstream's failure type.
        @usableFromInline let failure: (UpstreamFailure) -> DownstreamFailure

        @inlinable
        init(step: @escaping Step, failure: @escaping (UpstreamFailure) -> DownstreamFailure) {
            self.step = step
            self.failure = failure
        }
    }

    @usableFromInline var owned: Owned?

    /// The result so far.
    @usableFromInline var result: Output?

    @inlinable
    init(owned: Owned, result: Output?) {
        self.owned = owned
        self.result = result
    }
}
