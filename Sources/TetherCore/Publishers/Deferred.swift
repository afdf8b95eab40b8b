/// A publisher that awaits subscription before running the supplied closure to create a
/// publisher for the new subscriber.
///
/// Every subscriber gets a publisher of its own, made on the subscribing thread at the moment it
/// subscribes; demand, values, completion and cancellation are that publisher's.
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
    /// The kind of values published by this publisher: the deferred publisher's.
    public typealias Output = DeferredPublisher.Output

    /// The kind of errors this publisher might publish: the deferred publisher's.
    public typealias Failure = DeferredPublisher.Failure

    /// The closure to execute when this deferred publisher receives a subscription.
    public let createPublisher: () -> DeferredPublisher

    /// Creates a deferred publisher.
    /// - Parameter createPublisher: The closure to execute when calling `subscribe(_:)`.
    @inlinable
    public init(createPublisher: @escaping () -> DeferredPublisher) {
        self.createPublisher = createPublisher
    }

    /// Creates a fresh publisher with ``createPublisher`` and attaches `subscriber` to it.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        createPublisher().subscribe(subscriber)
    }
}
