/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use it to expose a publisher's `Output` and `Failure` without its concrete type, typically
/// through ``Publisher/eraseToAnyPublisher()``. Subscribing to an `AnyPublisher` subscribes to
/// the wrapped publisher (through its `subscribe(_:)`, as an ``_Introspection`` sees): demand,
/// values and cancellation pass straight through.
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    /// The wrapped publisher, in a ``PublisherBox``.
    @usableFromInline
    internal let box: AnyObject

    /// Subscribes an ``AnySubscriber`` to the boxed publisher. Made where the publisher's type
    /// is known, so the whole chain above this erasure point is specialised once, for the one
    /// subscriber type `AnySubscriber<Output, Failure>`, however it is later subscribed to.
    @usableFromInline
    internal let subscribe: (AnyObject, AnySubscriber<Output, Failure>) -> Void

    /// Creates a type-erasing publisher to wrap the provided publisher.
    /// - Parameter publisher: A publisher to wrap with a type-eraser.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            box = PublisherBox.make(publisher)
            subscribe = { box, subscriber in
                unsafeDowncast(box, to: PublisherBox<P>.self).base.subscribe(subscriber)
            }
        }
    }

    /// Attaches `subscriber` to the wrapped publisher.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribe(box, AnySubscriber(subscriber))
    }

    /// `"AnyPublisher"`.
    public var description: String { "AnyPublisher" }

    /// The ``description``.
    public var playgroundDescription: Any { description }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    ///
    /// Use it to expose an instance of ``AnyPublisher`` to the downstream subscriber, rather
    /// than this publisher's actual type.
    /// - Returns: An ``AnyPublisher`` wrapping this publisher.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

/// The publisher an ``AnyPublisher`` wraps.
@usableFromInline
internal final class PublisherBox<Base: Publisher> {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) { self.base = base }

    /// Allocates the box behind a call that is never inlined, as ``ErasedSubscriber``'s boxes
    /// are, so a user's code that stores an erased publisher cannot have it stack-promoted.
    @inlinable @inline(never)
    static func make(_ base: Base) -> PublisherBox { PublisherBox(base) }
}

extension PublisherBox: LedgerChainLink {
    @usableFromInline var ledgerUpstream: Any { base }
}
