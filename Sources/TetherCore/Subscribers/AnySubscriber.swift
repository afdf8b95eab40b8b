/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to wrap an existing subscriber whose details you don't want to
/// expose, or to build a subscriber from closures. Wrapping a ``Subject`` forwards the
/// subscription, values and completion to the subject's `send` methods.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    /// The wrapped subscriber, subject or closures, in one of the boxes below.
    @usableFromInline
    internal let box: any ErasedSubscriber<Input, Failure>

    /// The box's three entry points, made where the wrapped subscriber's type is known (the
    /// initialisers are `@inlinable`, so they specialise in the caller's module). A value that
    /// crosses this erasure point runs specialised code on both sides: calling a box through its
    /// protocol instead would run the generic, unspecialised implementation, which looks up
    /// generic metadata on every call (see ``ErasedSubscriber``).
    @usableFromInline
    internal let onSubscription: (AnyObject, any Subscription) -> Void
    @usableFromInline
    internal let onValue: (AnyObject, Input) -> Subscribers.Demand
    @usableFromInline
    internal let onCompletion: (AnyObject, Subscribers.Completion<Failure>) -> Void

    /// The wrapped subscriber's identifier, or a fresh one for a closure-based subscriber.
    public let combineIdentifier: CombineIdentifier

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    /// - Parameter s: The subscriber to type-erase.
    @inlinable
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
        } else {
            box = SubscriberBox.make(s)
            onSubscription = { unsafeDowncast($0, to: SubscriberBox<S>.self).base.receive(subscription: $1) }
            onValue = { unsafeDowncast($0, to: SubscriberBox<S>.self).base.receive($1) }
            onCompletion = { unsafeDowncast($0, to: SubscriberBox<S>.self).base.receive(completion: $1) }
            combineIdentifier = s.combineIdentifier
        }
    }

    /// Creates a type-erasing subscriber that sends what it receives to a subject.
    ///
    /// As in Combine, the subject is reached through the subscriber that `subscribe(_:)` attaches
    /// for a subject (described as `"Subject"`): the subject receives it as its subscription on
    /// the first `receive(subscription:)` (a later subscription is cancelled), then the values,
    /// and the first completion only; `receive(_:)` returns `.none`.
    /// - Parameter s: The subject that receives the subscription, values and completion.
    @inlinable
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        self.init(SubjectSubscriber(s))
    }

    /// Creates a type-erasing subscriber that executes the provided closures.
    /// - Parameters:
    ///   - receiveSubscription: A closure to execute when the subscriber receives the initial
    ///     subscription from the publisher.
    ///   - receiveValue: A closure to execute when the subscriber receives a value from the
    ///     publisher; its result is the additional demand (`.none` when omitted).
    ///   - receiveCompletion: A closure to execute when the subscriber receives a completion
    ///     callback from the publisher.
    @inlinable
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        box = ClosureSubscriberBox.make(
            receiveSubscription: receiveSubscription, receiveValue: receiveValue,
            receiveCompletion: receiveCompletion)
        typealias Box = ClosureSubscriberBox<Input, Failure>
        onSubscription = { unsafeDowncast($0, to: Box.self).onSubscription?($1) }
        onValue = { unsafeDowncast($0, to: Box.self).onValue?($1) ?? .none }
        onCompletion = { unsafeDowncast($0, to: Box.self).onCompletion?($1) }
        combineIdentifier = CombineIdentifier()
    }

    /// Forwards the subscription to the wrapped subscriber.
    /// - Parameter subscription: The subscription from the publisher.
    @inlinable
    public func receive(subscription: any Subscription) {
        onSubscription(box, subscription)
    }

    /// Forwards the value to the wrapped subscriber and returns its demand.
    /// - Parameter value: The published value.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        onValue(box, value)
    }

    /// Forwards the completion to the wrapped subscriber.
    /// - Parameter completion: How the publisher finished.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        onCompletion(box, completion)
    }

    /// The wrapped subscriber's description, or `"Anonymous AnySubscriber"`.
    public var description: String { box.description }

    /// The wrapped subscriber's mirror.
    public var customMirror: Mirror { box.customMirror }

    /// The ``description``.
    public var playgroundDescription: Any { description }
}

extension Subscriber {
    /// Wraps this subscriber with a type eraser.
    /// - Returns: An ``AnySubscriber`` wrapping this subscriber.
    @inlinable
    public func eraseToAnySubscriber() -> AnySubscriber<Input, Failure> {
        AnySubscriber(self)
    }
}

/// The box an ``AnySubscriber`` keeps its subscriber in. Signals do not go through this
/// protocol: a generic class's conformance runs the generic, unspecialised implementation of
/// its methods, so each box is reached through entry points that ``AnySubscriber`` makes where
/// the box's type is known. The protocol only describes the box.
///
/// Every box is allocated by a `make` function that is `@inlinable` (so it is specialised in the
/// user's module) but `@inline(never)`. Swift 6.3.1's SIL stack promotion wrongly places an
/// object on the stack when, after inlining, it is stored into a class instance reached through
/// a struct argument: exactly what a user's publisher class does with `AnySubscriber(subscriber)`
/// when Tether's specialised `sink` or operator code inlines its `receive(subscriber:)`. The
/// box then dangles once that function returns (`Docs/StackPromotionReproducer.md`). Made by a
/// call that is never inlined, the box is returned from a function and so always escapes.
@usableFromInline
internal protocol ErasedSubscriber<Input, Failure>: AnyObject, CustomStringConvertible,
    CustomReflectable
{
    associatedtype Input
    associatedtype Failure: Error
}

@usableFromInline
internal final class SubscriberBox<Base: Subscriber>: ErasedSubscriber {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) { self.base = base }

    /// Allocates the box; see ``ErasedSubscriber`` for why this is never inlined.
    @inlinable @inline(never)
    static func make(_ base: Base) -> SubscriberBox { SubscriberBox(base) }

    @usableFromInline typealias Input = Base.Input
    @usableFromInline typealias Failure = Base.Failure

    @usableFromInline var description: String { String(describing: base) }

    @usableFromInline var customMirror: Mirror { Mirror(reflecting: base) }
}

@usableFromInline
internal final class ClosureSubscriberBox<Input, Failure: Error>: ErasedSubscriber {
    @usableFromInline let onSubscription: ((any Subscription) -> Void)?
    @usableFromInline let onValue: ((Input) -> Subscribers.Demand)?
    @usableFromInline let onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    @inlinable
    init(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveValue: ((Input) -> Subscribers.Demand)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    ) {
        onSubscription = receiveSubscription
        onValue = receiveValue
        onCompletion = receiveCompletion
    }

    /// Allocates the box; see ``ErasedSubscriber`` for why this is never inlined.
    @inlinable @inline(never)
    static func make(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveValue: ((Input) -> Subscribers.Demand)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    ) -> ClosureSubscriberBox {
        ClosureSubscriberBox(
            receiveSubscription: receiveSubscription, receiveValue: receiveValue,
            receiveCompletion: receiveCompletion)
    }

    @usableFromInline var description: String { "Anonymous AnySubscriber" }

    /// The mirror of the description, as Combine's: a `String`, with no children.
    @usableFromInline var customMirror: Mirror { Mirror(reflecting: description) }
}
