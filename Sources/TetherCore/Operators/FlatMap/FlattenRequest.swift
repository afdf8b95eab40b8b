/// A request a ``FlattenState`` asks its subscription to make once the lock is released: this
/// many more values from an inner, or one more publisher from the upstream.
///
/// An object, so that ``FlattenState/Effects`` holds no existential of its own: a generic value
/// with an existential field (as the tuple of a subscription and a demand was) is destroyed
/// through its type's value witness, looked up by name, every time the effects are let go of,
/// request or no request; holding only references and loadable values, the effects are
/// destroyed in place. It is allocated only when there is a request to make, which the paths
/// taken on every value and by every subscription (the quick transitions) never hand out; where
/// one is made on every value (a downstream pulling one at a time), the allocation still costs
/// less than the lookups did (see Docs/FastWithoutTheSpecialiser.md, "Copies the compiler makes
/// through value witnesses").
@usableFromInline
internal final class FlattenRequest {
    @usableFromInline let subscription: any Subscription
    @usableFromInline let demand: Subscribers.Demand

    @inlinable
    init(_ subscription: consuming any Subscription, _ demand: Subscribers.Demand) {
        self.subscription = subscription
        self.demand = demand
    }
}
