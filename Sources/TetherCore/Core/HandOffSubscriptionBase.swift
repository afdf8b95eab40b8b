/// A ``SubscriptionBase`` that keeps, beside its state, what is read without the state's lock and
/// let go of by whichever side the subclass's own protocol names: a ``ReleaseHandOff`` for a
/// subject's subscription (Docs/SubscriptionKernel.md), one atomic exchange for `Just`'s.
///
/// A stored property of its own rather than a field of `State`: the state is read and written
/// under the lock as one value, and this is not. Its type is a generic parameter of the class, so
/// that `deinit` (which runs unspecialised) looks up no type for it either.
@usableFromInline
package class HandOffSubscriptionBase<State, Serial>: SubscriptionBase<State> {
    /// Read outside the lock; let go of by the side the subclass's protocol names.
    @usableFromInline @exclusivity(unchecked)
    package final var serial: Serial

    @inlinable
    package init(state: State, serial: Serial) {
        self.serial = serial
        super.init(state: state)
    }
}
