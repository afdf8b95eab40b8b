/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class-bound in practice: they have identity, and cancelling one frees the
/// resources attached to the subscriber. Cancelling is thread-safe; after ``Cancellable/cancel()``
/// the subscription sends nothing more. Some keep a reference to their subscriber until the
/// subscriber lets them go, as Combine's do (each operator's documentation says which).
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    ///
    /// Demand is additive: requesting `.max(2)` and then `.max(3)` allows five values in all.
    /// - Parameter demand: The number of additional values the subscriber can receive.
    func request(_ demand: Subscribers.Demand)
}
