/// The subscription an ``IntrospectedSubscriber`` hands its subscriber in place of `base`: it
/// reports each request and cancellation to the `_Introspection` objects enabled at that moment
/// and forwards it to `base`.
///
/// It describes itself and identifies itself as `base` does, and is nothing else a caller could
/// cast it to.
internal struct IntrospectedSubscription: Subscription, CustomStringConvertible {
    /// The subscription the publisher sent.
    internal let base: any Subscription

    internal init(_ base: any Subscription) {
        self.base = base
    }

    internal var combineIdentifier: CombineIdentifier { base.combineIdentifier }

    internal var description: String { String(describing: base) }

    internal func request(_ demand: Subscribers.Demand) {
        IntrospectionRegistry.forEachEnabled { $0.willRequest(subscription: base, demand) }
        base.request(demand)
        IntrospectionRegistry.forEachEnabled { $0.didRequest(subscription: base, demand) }
    }

    internal func cancel() {
        IntrospectionRegistry.forEachEnabled { $0.willCancel(subscription: base) }
        base.cancel()
        IntrospectionRegistry.forEachEnabled { $0.didCancel(subscription: base) }
    }
}
