import TetherCore

/// A relay that broadcasts values to its subscribers, and that can neither fail nor finish.
///
/// It behaves as a ``PassthroughSubject`` that is never completed (and its subscriptions describe
/// themselves as that subject's): a value accepted while a subscriber has no outstanding demand
/// is dropped for that subscriber, and each subscriber receives its values one at a time, on the
/// thread that calls ``accept(_:)`` or, for a value accepted while the subscriber is busy, on the
/// thread that is delivering. Subscribers stay attached until they cancel.
public final class PassthroughRelay<Output>: Relay, @unchecked Sendable {
    /// The kind of errors this publisher might publish: none.
    public typealias Failure = Never

    @usableFromInline
    internal let subject = PassthroughSubject<Output, Never>()

    /// Creates a relay with no subscribers.
    public init() {}

    /// Attaches `subscriber`; it receives the values accepted once it has demand.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Sends a value to every subscriber that has demand for it.
    /// - Parameter value: The value to send.
    @inlinable
    public func accept(_ value: Output) {
        subject.send(value)
    }
}
