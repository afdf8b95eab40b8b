/// A publisher that provides an explicit means of connecting and canceling publication.
///
/// Use a connectable publisher when you need to perform additional configuration or setup
/// (attach several subscribers, for example) before it produces any elements: it produces
/// nothing until you call ``connect()``. ``Publisher/makeConnectable()`` makes one from any
/// publisher that cannot fail, and ``autoconnect()`` connects on the first subscriber.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
    /// Connects to the publisher, allowing it to produce elements, and returns an instance
    /// with which to cancel publishing.
    ///
    /// - Returns: A ``Cancellable`` instance that you use to cancel publishing. Keep it: the
    ///   connection lasts until you cancel it (or the upstream completes).
    func connect() -> any Cancellable
}
