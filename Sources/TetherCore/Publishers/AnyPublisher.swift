/// A publisher that performs type erasure by wrapping another publisher.
///
/// Use it to expose a publisher's `Output` and `Failure` without its concrete type, typically
/// through ``Publisher/eraseToAnyPublisher()``. Subscribing to an `AnyPublisher` subscribes to
/// the wrapped publisher (through its `receive(subscriber:)`: an `_Introspection` is told about
/// the subscription to the `AnyPublisher`, as in Combine, not about a second one to the wrapped
/// publisher): demand, values and cancellation pass straight through.
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    /// The wrapped publisher, in a ``PublisherBox``: an `AnyPublisher` is this one reference, as
    /// Combine's is, so erasing it again is free and storing it costs a word.
    @usableFromInline
    internal let box: ErasedPublisherBox<Output, Failure>

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
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        box.subscribe(box, AnySubscriber(subscriber))
    }

    /// The publisher `box` wraps, erased.
    @inlinable
    internal init(box: ErasedPublisherBox<Output, Failure>) {
        self.box = box
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
    public consuming func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

/// What an ``AnyPublisher`` holds: the entry point that subscribes an ``AnySubscriber`` to the
/// wrapped publisher, made where the publisher's type is known, so the whole chain above this
/// erasure point is specialised once, for the one subscriber type `AnySubscriber<Output,
/// Failure>`, however it is later subscribed to. An overridden method would not do: a generic
/// class's override runs its generic, unspecialised implementation (see ``ErasedSubscriber``).
@usableFromInline
internal class ErasedPublisherBox<Output, Failure: Error> {
    @usableFromInline
    internal let subscribe: (ErasedPublisherBox, AnySubscriber<Output, Failure>) -> Void

    /// Reads the one value of the `Just` (or `Just` given a failure type) the box wraps, which the
    /// flattening operators take without subscribing (see ``valueOfErasedJust(_:_:)``); `nil` for
    /// any other publisher.
    ///
    /// A function rather than an `Output?`: this class's `deinit` runs unspecialised, and would
    /// look `Optional<Output>` up in the run time's metadata cache to destroy one, for every erased
    /// `Just` a `flatMap` lets go of. A function's layout is the same whatever its types.
    @usableFromInline
    internal let valueAtHand: ((ErasedPublisherBox) -> Output)?

    /// Makes a `sink` on the subject the box wraps as `sink` on the subject itself does (one
    /// ``SubjectSink``), so an erased subject, the way an application hands one out, costs what
    /// the subject does; `nil` for any other publisher. Made where the publisher's type is known.
    @usableFromInline
    internal let sinkIfSubject:
        (
            ErasedPublisherBox, @escaping (Subscribers.Completion<Failure>) -> Void,
            @escaping (Output) -> Void
        ) -> AnyCancellable?

    @inlinable
    init(
        subscribe: @escaping (ErasedPublisherBox, AnySubscriber<Output, Failure>) -> Void,
        valueAtHand: ((ErasedPublisherBox) -> Output)?,
        sinkIfSubject:
            @escaping (
                ErasedPublisherBox, @escaping (Subscribers.Completion<Failure>) -> Void,
                @escaping (Output) -> Void
            ) -> AnyCancellable?
    ) {
        self.subscribe = subscribe
        self.valueAtHand = valueAtHand
        self.sinkIfSubject = sinkIfSubject
    }
}

/// The publisher an ``AnyPublisher`` wraps.
@usableFromInline
internal final class PublisherBox<Base: Publisher>: ErasedPublisherBox<Base.Output, Base.Failure> {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
        super.init(
            subscribe: { box, subscriber in
                unsafeDowncast(box, to: PublisherBox.self).base.receive(subscriber: subscriber)
            },
            valueAtHand: isJust(Base.self) ? { valueOfJust(unsafeDowncast($0, to: PublisherBox.self).base) } : nil,
            sinkIfSubject: { box, receiveCompletion, receiveValue in
                // Made here, where `Base` is known, so the casts are settled at compile time; a
                // check of `Base.self` against the subjects' types would not be, and would cost
                // two run-time casts each time a publisher is erased.
                unsafeDowncast(box, to: PublisherBox.self).base
                    .sinkIfSubject(receiveCompletion, receiveValue, origin: AnyPublisher(box: box))
            })
    }

    /// Allocates the box behind a call that is never inlined, as ``ErasedSubscriber``'s boxes
    /// are, so a user's code that stores an erased publisher cannot have it stack-promoted.
    @inlinable @inline(never)
    static func make(_ base: Base) -> PublisherBox { PublisherBox(base) }
}

extension PublisherBox: LedgerChainLink {
    @usableFromInline var ledgerUpstream: Any { base }
}

extension AnyPublisher: SubscriberErasing {}
