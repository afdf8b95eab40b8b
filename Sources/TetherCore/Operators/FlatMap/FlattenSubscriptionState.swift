/// What a ``FlattenSubscription`` owns that depends on its types, held as one value (see
/// ``SubscriptionBase``) and guarded part by part.
@usableFromInline
internal struct FlattenSubscriptionState<Machine, Transform, Downstream> {
    /// Guarded by the subscription's lock.
    @usableFromInline var machine: Machine
    /// Released as soon as the stream is over, so that what it captured goes too. Guarded by the
    /// subscription's lock.
    @usableFromInline var transform: Transform?
    /// Read and written only by the holder of the machine's drain token.
    @usableFromInline var downstream: Downstream?

    @inlinable
    init(machine: Machine, transform: Transform, downstream: Downstream) {
        self.machine = machine
        self.transform = transform
        self.downstream = downstream
    }
}
