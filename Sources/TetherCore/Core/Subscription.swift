/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class-bound in practice: they have identity, and cancelling one frees the
/// resources attached to the subscriber. Cancelling is thread-safe; after ``Cancellable/cancel()``
/// the subscription sends nothing more and releases its subscriber.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    ///
    /// Demand is additive: requesting `.max(2)` and then `.max(3)` allows five values in all.
    /// - Parameter demand: The number of additional values the subscriber can receive.
    func request(_ demand: Subscribers.Demand)
}
