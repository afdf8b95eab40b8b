/// A ``SubscriptionBase`` that keeps, beside its state, what its serial path reads without the
/// state's lock, on the terms of a ``ReleaseHandOff`` (see Docs/SubscriptionKernel.md).
///
/// A stored property of its own rather than a field of `State`: the state is read and written
/// under the lock as one value, and this is not. Its type is a generic parameter of the class, so
/// that `deinit` (which runs unspecialised) looks up no type for it either.
@usableFromInline
package class HandOffSubscriptionBase<State, Serial>: SubscriptionBase<State> {
    /// Read on the serial path; let go of by whichever side the subclass's hand-off names.
    @usableFromInline @exclusivity(unchecked)
    package final var serial: Serial

    @inlinable
    package init(state: State, serial: Serial) {
        self.serial = serial
        super.init(state: state)
    }
}
