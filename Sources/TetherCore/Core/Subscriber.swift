/// A protocol that declares a type that can receive input from a publisher.
///
/// A subscriber receives, in order and never concurrently: one subscription, then values up to
/// the demand it has expressed, then at most one completion.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The kind of errors this subscriber might receive; `Never` if it cannot receive a failure.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed to the publisher and may request
    /// items.
    ///
    /// Use the received ``Subscription`` to request items from the publisher.
    /// - Parameter subscription: A subscription that represents the connection between publisher
    ///   and subscriber.
    func receive(subscription: any Subscription)

    /// Tells the subscriber that the publisher has produced an element.
    ///
    /// - Parameter input: The published element.
    /// - Returns: A demand instance indicating how many more elements the subscriber expects to
    ///   receive; it is added to the outstanding demand.
    func receive(_ input: Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has completed publishing, either normally or with
    /// an error.
    ///
    /// - Parameter completion: A ``Subscribers/Completion`` case indicating whether publishing
    ///   completed normally or with an error.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of void elements is ready to receive further
    /// requests.
    ///
    /// - Returns: A demand instance indicating how many more elements the subscriber expects to
    ///   receive.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}

/// A namespace for types that serve as subscribers.
public enum Subscribers {}
