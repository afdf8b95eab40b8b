/// A publisher that exposes a method for outside callers to publish elements.
///
/// A subject broadcasts values to its subscribers, honouring each one's own demand. It can also
/// subscribe to an upstream publisher (``Publisher/subscribe(_:)->_``), which hands it
/// the upstream subscription through ``send(subscription:)``.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    ///
    /// - Parameter value: The value to send.
    func send(_ value: Output)

    /// Sends a completion signal to the subscribers.
    ///
    /// - Parameter completion: A `Completion` instance which indicates whether publishing has
    ///   finished normally or failed with an error.
    func send(completion: Subscribers.Completion<Failure>)

    /// Provides this subject an upstream subscription, from which it requests `.unlimited` once
    /// any of its subscribers has demand.
    ///
    /// - Parameter subscription: The subscription instance through which the subject can request
    ///   elements.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscribers.
    @inlinable
    public func send() {
        send(())
    }
}
