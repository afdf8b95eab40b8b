/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use it to expose a publisher's `Output` and `Failure` without its concrete type, typically
/// through ``Publisher/eraseToAnyPublisher()``. Subscribing to an `AnyPublisher` subscribes to
/// the wrapped publisher: demand, values and cancellation pass straight through.
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    internal let box: any ErasedPublisher<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    /// - Parameter publisher: A publisher to wrap with a type-eraser.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            box = PublisherBox.make(publisher)
        }
    }

    /// Attaches `subscriber` to the wrapped publisher.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
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

@usableFromInline
internal protocol ErasedPublisher<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

@usableFromInline
internal final class PublisherBox<Base: Publisher>: ErasedPublisher {
    @usableFromInline typealias Output = Base.Output
    @usableFromInline typealias Failure = Base.Failure

    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) { self.base = base }

    /// Allocates the box behind a call that is never inlined, as ``ErasedSubscriber``'s boxes
    /// are, so a user's code that stores an erased publisher cannot have it stack-promoted.
    @inlinable @inline(never)
    static func make(_ base: Base) -> PublisherBox { PublisherBox(base) }

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Base.Output, S.Failure == Base.Failure {
        base.receive(subscriber: subscriber)
    }
}

extension PublisherBox: LedgerChainLink {
    @usableFromInline var ledgerUpstream: Any { base }
}
