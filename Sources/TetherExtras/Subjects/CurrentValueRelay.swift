import TetherCore

/// A relay that wraps a single value and publishes it whenever it changes, and that can neither
/// fail nor finish.
///
/// It behaves as a ``CurrentValueSubject`` that is never completed (and its subscriptions
/// describe themselves as that subject's): a new subscriber receives the current value on its
/// first demand, and a subscriber without demand when values are accepted receives the latest
/// once it asks. Values are delivered on the thread that calls ``accept(_:)`` or, for a value
/// accepted while the subscriber is busy, on the thread that is delivering (the current value to
/// a new subscriber: on the thread that requests it). Subscribers stay attached until they cancel.
public final class CurrentValueRelay<Output>: Relay, @unchecked Sendable {
    /// The kind of errors this publisher might publish: none.
    public typealias Failure = Never

    @usableFromInline
    internal let subject: CurrentValueSubject<Output, Never>

    /// The value wrapped by this relay: the last one accepted, or the initial one.
    public var value: Output { subject.value }

    /// Creates a relay holding `value`.
    /// - Parameter value: The initial value.
    public init(_ value: Output) {
        subject = CurrentValueSubject(value)
    }

    /// Attaches `subscriber`; it receives the current value on its first demand.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subject.receive(subscriber: subscriber)
    }

    /// Sets the current value and sends it to every subscriber.
    /// - Parameter value: The new value.
    @inlinable
    public func accept(_ value: Output) {
        subject.send(value)
    }
}
