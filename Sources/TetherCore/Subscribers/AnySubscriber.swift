/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to wrap an existing subscriber whose details you don't want to
/// expose, or to build a subscriber from closures. Wrapping a ``Subject`` forwards the
/// subscription, values and completion to the subject's `send` methods.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    internal let box: any ErasedSubscriber<Input, Failure>

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
            combineIdentifier = s.combineIdentifier
        }
    }

    /// Creates a type-erasing subscriber that sends what it receives to a subject.
    /// - Parameter s: The subject that receives the subscription, values and completion.
    @inlinable
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        box = SubjectBox.make(s)
        combineIdentifier = CombineIdentifier()
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
        combineIdentifier = CombineIdentifier()
    }

    /// Forwards the subscription to the wrapped subscriber.
    /// - Parameter subscription: The subscription from the publisher.
    @inlinable
    public func receive(subscription: any Subscription) {
        box.receive(subscription: subscription)
    }

    /// Forwards the value to the wrapped subscriber and returns its demand.
    /// - Parameter value: The published value.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        box.receive(value)
    }

    /// Forwards the completion to the wrapped subscriber.
    /// - Parameter completion: How the publisher finished.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receive(completion: completion)
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

/// The box an ``AnySubscriber`` keeps its subscriber in.
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

    func receive(subscription: any Subscription)
    func receive(_ input: Input) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<Failure>)
}

@usableFromInline
internal final class SubscriberBox<Base: Subscriber>: ErasedSubscriber {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) { self.base = base }

    /// Allocates the box; see ``ErasedSubscriber`` for why this is never inlined.
    @inlinable @inline(never)
    static func make(_ base: Base) -> SubscriberBox { SubscriberBox(base) }

    @inlinable
    func receive(subscription: any Subscription) { base.receive(subscription: subscription) }

    @inlinable
    func receive(_ input: Base.Input) -> Subscribers.Demand { base.receive(input) }

    @inlinable
    func receive(completion: Subscribers.Completion<Base.Failure>) { base.receive(completion: completion) }

    @usableFromInline var description: String { String(describing: base) }

    @usableFromInline var customMirror: Mirror { Mirror(reflecting: base) }
}

@usableFromInline
internal final class SubjectBox<Base: Subject>: ErasedSubscriber {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) { self.base = base }

    /// Allocates the box; see ``ErasedSubscriber`` for why this is never inlined.
    @inlinable @inline(never)
    static func make(_ base: Base) -> SubjectBox { SubjectBox(base) }

    @inlinable
    func receive(subscription: any Subscription) { base.send(subscription: subscription) }

    @inlinable
    func receive(_ input: Base.Output) -> Subscribers.Demand {
        base.send(input)
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Base.Failure>) { base.send(completion: completion) }

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

    @inlinable
    func receive(subscription: any Subscription) { onSubscription?(subscription) }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand { onValue?(input) ?? .none }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) { onCompletion?(completion) }

    @usableFromInline var description: String { "Anonymous AnySubscriber" }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
}
