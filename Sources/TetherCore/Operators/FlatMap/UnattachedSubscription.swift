/// What a ``FlattenInners`` slot holds while it has no inner's subscription: before the inner
/// hands it over, and once the inner is gone. A stateless stand-in, so that a slot is a plain
/// existential, written and dropped directly, rather than an optional one, which goes through
/// `Optional`'s run-time value witnesses; and made without a global's one-time initialisation,
/// which ``Subscriptions/empty`` needs for its identifier.
///
/// Never handed to anyone: the slots' flags say which hold a real subscription.
@usableFromInline
internal struct UnattachedSubscription: Subscription {
    @inlinable
    init() {}

    /// The empty subscription's: a stand-in has no identity of its own.
    @usableFromInline
    var combineIdentifier: CombineIdentifier { Subscriptions.empty.combineIdentifier }

    /// Does nothing.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {}

    /// Does nothing.
    @usableFromInline
    func cancel() {}
}
