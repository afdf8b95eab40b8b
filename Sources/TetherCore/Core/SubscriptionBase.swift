/// The base of a subscription class that keeps everything generic it owns in one value of type
/// `State`.
///
/// A generic class's `deinit` runs unspecialised: destroying a stored property whose type is
/// built from the class's generic parameters (`Downstream?`, `Locked<Machine<Value>>`, a struct of
/// them) looks that type up in the run time's metadata cache on every `deinit`. A property whose
/// type *is* a generic parameter of its class needs no lookup: the run time reads it from the
/// object's own metadata. A subclass that names its state struct here pays for no lookup at all.
@usableFromInline
package class SubscriptionBase<State> {
    /// The subclass's state; how it is guarded is the subclass's to say.
    @usableFromInline @exclusivity(unchecked)
    package final var state: State

    @inlinable
    package init(state: State) {
        self.state = state
    }
}
