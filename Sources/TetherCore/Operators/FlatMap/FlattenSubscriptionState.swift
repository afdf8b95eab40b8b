/// What a ``FlattenSubscription`` owns under its lock that depends on its types, held as one
/// value (see ``SubscriptionBase``). The downstream is not here: it is the subscription's
/// ``HandOffSubscriptionBase/serial``, a property of its own, because only the drain token's
/// holder touches it, while other threads change this value under the lock.
@usableFromInline
internal struct FlattenSubscriptionState<Machine, Transform> {
    @usableFromInline var machine: Machine
    /// Released as soon as the stream is over, so that what it captured goes too.
    @usableFromInline var transform: Transform?

    @inlinable
    init(machine: Machine, transform: Transform) {
        self.machine = machine
        self.transform = transform
    }
}
