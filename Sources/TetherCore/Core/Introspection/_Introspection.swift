/// An object told about every event of the subscriptions made while it is enabled.
///
/// Combine declares this protocol in its module interface (underscored, so it is not in Apple's
/// documentation). Implement only the hooks you need: each has an empty default. Call
/// `enable()` to start receiving events and `disable()` to stop; several objects can be
/// enabled at once, and each is told about every event.
///
/// Only `subscribe(_:)` is observed, not a direct call to `receive(subscriber:)`. While at least one introspection object is enabled,
/// `subscribe(_:)` hands the publisher a wrapper of the subscriber, and that wrapper hands the
/// subscriber a wrapper of its subscription; the two report every signal that passes through them
/// to the objects enabled at the time of the signal, before and after forwarding it, even once
/// the subscription outlives the introspection that was enabled when it was made. A subscription
/// made while none is enabled is never observed.
///
/// Hooks are called on the thread of the event they report, with no lock held.
public protocol _Introspection: AnyObject {
    /// Called when `subscriber` is about to be attached to `publisher` by `subscribe(_:)`.
    /// - Parameters:
    ///   - publisher: The publisher being subscribed to.
    ///   - subscriber: The subscriber being attached.
    func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    /// Called when `publisher`'s `receive(subscriber:)` has returned.
    /// - Parameters:
    ///   - publisher: The publisher subscribed to.
    ///   - subscriber: The subscriber attached.
    func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input

    /// Called when `subscriber` is about to receive `subscription`.
    /// - Parameters:
    ///   - subscriber: The subscriber receiving the subscription.
    ///   - subscription: The subscription, as the publisher sent it.
    func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

    /// Called when `subscriber` has received `subscription`.
    /// - Parameters:
    ///   - subscriber: The subscriber that received the subscription.
    ///   - subscription: The subscription, as the publisher sent it.
    func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription)

    /// Called when `subscriber` is about to receive `input`.
    /// - Parameters:
    ///   - subscriber: The subscriber receiving the value.
    ///   - input: The value.
    func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input)

    /// Called when `subscriber` has received `input` and returned `resultingDemand`.
    /// - Parameters:
    ///   - subscriber: The subscriber that received the value.
    ///   - input: The value.
    ///   - resultingDemand: The additional demand the subscriber returned.
    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand)

    /// Called when `subscriber` is about to receive `completion`.
    /// - Parameters:
    ///   - subscriber: The subscriber receiving the completion.
    ///   - completion: The completion.
    func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    /// Called when `subscriber` has received `completion`.
    /// - Parameters:
    ///   - subscriber: The subscriber that received the completion.
    ///   - completion: The completion.
    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>)

    /// Called when `demand` is about to be requested from `subscription`.
    /// - Parameters:
    ///   - subscription: The subscription, as its publisher sent it.
    ///   - demand: The demand requested.
    func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

    /// Called when `subscription`'s `request(_:)` has returned.
    /// - Parameters:
    ///   - subscription: The subscription, as its publisher sent it.
    ///   - demand: The demand requested.
    func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand)

    /// Called when `subscription` is about to be cancelled.
    /// - Parameter subscription: The subscription, as its publisher sent it.
    func willCancel(subscription: any Subscription)

    /// Called when `subscription`'s `cancel()` has returned.
    /// - Parameter subscription: The subscription, as its publisher sent it.
    func didCancel(subscription: any Subscription)
}

extension _Introspection {
    /// Does nothing.
    /// - Parameters:
    ///   - publisher: The publisher being subscribed to.
    ///   - subscriber: The subscriber being attached.
    public func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    /// Does nothing.
    /// - Parameters:
    ///   - publisher: The publisher subscribed to.
    ///   - subscriber: The subscriber attached.
    public func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscriber: The subscriber receiving the subscription.
    ///   - subscription: The subscription.
    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscriber: The subscriber that received the subscription.
    ///   - subscription: The subscription.
    public func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscriber: The subscriber receiving the value.
    ///   - input: The value.
    public func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscriber: The subscriber that received the value.
    ///   - input: The value.
    ///   - resultingDemand: The additional demand the subscriber returned.
    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscriber: The subscriber receiving the completion.
    ///   - completion: The completion.
    public func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscriber: The subscriber that received the completion.
    ///   - completion: The completion.
    public func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscription: The subscription.
    ///   - demand: The demand requested.
    public func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

    /// Does nothing.
    /// - Parameters:
    ///   - subscription: The subscription.
    ///   - demand: The demand requested.
    public func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {}

    /// Does nothing.
    /// - Parameter subscription: The subscription.
    public func willCancel(subscription: any Subscription) {}

    /// Does nothing.
    /// - Parameter subscription: The subscription.
    public func didCancel(subscription: any Subscription) {}

    /// Starts telling this object about the events of subscriptions; does nothing if it is
    /// already enabled.
    ///
    /// The events of subscriptions made before any introspection object was enabled are not
    /// reported.
    public func enable() {
        IntrospectionRegistry.enable(self)
    }

    /// Stops telling this object about events; does nothing if it is not enabled.
    public func disable() {
        IntrospectionRegistry.disable(self)
    }

    /// Whether this object is enabled: between `enable()` and `disable()`.
    public var isEnabled: Bool {
        IntrospectionRegistry.isEnabled(self)
    }
}
