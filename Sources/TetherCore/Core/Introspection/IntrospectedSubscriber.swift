/// The subscriber that `subscribe(_:)` hands a publisher, in place of `Base`, while an
/// `_Introspection` is enabled: it reports each signal to the objects enabled at that moment
/// and forwards it to `Base`, and it hands `Base` an ``IntrospectedSubscription``.
///
/// It describes itself and identifies itself as `Base` does, and is nothing else a caller could
/// cast it to (not an ``AnySubscriber``, not reflectable).
internal struct IntrospectedSubscriber<Base: Subscriber>: Subscriber, CustomStringConvertible {
    internal typealias Input = Base.Input
    internal typealias Failure = Base.Failure

    private let base: Base

    internal init(_ base: Base) {
        self.base = base
    }

    internal var combineIdentifier: CombineIdentifier { base.combineIdentifier }

    internal var description: String { String(describing: base) }

    internal func receive(subscription: any Subscription) {
        // The hooks are told about the subscription the publisher sent; an operator that passes
        // its upstream's subscription on sends one that is already wrapped.
        let introspected = subscription as? IntrospectedSubscription
        let reported = introspected?.base ?? subscription
        IntrospectionRegistry.forEachEnabled { $0.willReceive(subscriber: base, subscription: reported) }
        base.receive(subscription: introspected ?? IntrospectedSubscription(subscription))
        IntrospectionRegistry.forEachEnabled { $0.didReceive(subscriber: base, subscription: reported) }
    }

    internal func receive(_ input: Input) -> Subscribers.Demand {
        guard IntrospectionRegistry.isActive else { return base.receive(input) }
        IntrospectionRegistry.forEachEnabled { $0.willReceive(subscriber: base, input: input) }
        let demand = base.receive(input)
        IntrospectionRegistry.forEachEnabled {
            $0.didReceive(subscriber: base, input: input, resultingDemand: demand)
        }
        return demand
    }

    internal func receive(completion: Subscribers.Completion<Failure>) {
        IntrospectionRegistry.forEachEnabled { $0.willReceive(subscriber: base, completion: completion) }
        base.receive(completion: completion)
        IntrospectionRegistry.forEachEnabled { $0.didReceive(subscriber: base, completion: completion) }
    }
}

extension IntrospectedSubscriber: IntrospectionTapped {
    internal var introspectedSubscriber: Any? { AnySubscriber(base) }
}
