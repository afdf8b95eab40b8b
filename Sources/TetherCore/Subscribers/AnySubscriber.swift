/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to wrap an existing subscriber whose details you don't want to
/// expose, or to build a subscriber from closures. Wrapping a ``Subject`` forwards the
/// subscription, values and completion to the subject's `send` methods.
@frozen
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    /// The wrapped subscriber, subject or closures, in one of the boxes below, which also holds
    /// the entry points the signals go through. One reference: copying an `AnySubscriber` (into
    /// every relay of an erased chain, on every subscription) retains one object.
    @usableFromInline
    internal let box: ErasedSubscriber<Input, Failure>

    /// The wrapped subscriber's identifier, or a fresh one for a closure-based subscriber.
    public let combineIdentifier: CombineIdentifier

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    /// - Parameter s: The subscriber to type-erase.
    @inlinable
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
        } else {
            combineIdentifier = s.combineIdentifier
            box = SubscriberBox.make(s)
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
        combineIdentifier = CombineIdentifier()
    }

    /// Forwards the subscription to the wrapped subscriber.
    /// - Parameter subscription: The subscription from the publisher.
    @inlinable
    public func receive(subscription: any Subscription) {
        box.onSubscription(box, subscription)
    }

    /// Forwards the value to the wrapped subscriber and returns its demand.
    /// - Parameter value: The published value.
    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        box.onValue(box, value)
    }

    /// Forwards the completion to the wrapped subscriber.
    /// - Parameter completion: How the publisher finished.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.onCompletion(box, completion)
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

/// The box an ``AnySubscriber`` keeps its subscriber in, with the three entry points its signals
/// go through. Each subclass makes the entries in its `@inlinable` initialiser, where the wrapped
/// subscriber's type is known (the `make` functions specialise in the caller's module), so a
/// value that crosses this erasure point runs specialised code on both sides. An overridden
/// method would not do: a generic class's override runs its generic, unspecialised
/// implementation, which looks up generic metadata on every call. The stored entries are
/// functions, whose layout is the same whatever `Input` and `Failure` are, so this class's
/// `deinit` (which runs unspecialised) looks up no type either.
///
/// Every box is allocated by a `make` function that is `@inlinable` (so it is specialised in the
/// user's module) but `@inline(never)`. Swift 6.3.1's SIL stack promotion wrongly places an
/// object on the stack when, after inlining, it is stored into a class instance reached through
/// a struct argument: exactly what a user's publisher class does with `AnySubscriber(subscriber)`
/// when Tether's specialised `sink` or operator code inlines its `receive(subscriber:)`. The
/// box then dangles once that function returns (`Docs/StackPromotionReproducer.md`). Made by a
/// call that is never inlined, the box is returned from a function and so always escapes.
@usableFromInline
internal class ErasedSubscriber<Input, Failure: Error>: CustomStringConvertible, CustomReflectable {
    @usableFromInline
    internal let onSubscription: (ErasedSubscriber, any Subscription) -> Void
    @usableFromInline
    internal let onValue: (ErasedSubscriber, Input) -> Subscribers.Demand
    @usableFromInline
    internal let onCompletion: (ErasedSubscriber, Subscribers.Completion<Failure>) -> Void

    @inlinable
    init(
        onSubscription: @escaping (ErasedSubscriber, any Subscription) -> Void,
        onValue: @escaping (ErasedSubscriber, Input) -> Subscribers.Demand,
        onCompletion: @escaping (ErasedSubscriber, Subscribers.Completion<Failure>) -> Void
    ) {
        self.onSubscription = onSubscription
        self.onValue = onValue
        self.onCompletion = onCompletion
    }

    /// The wrapped subscriber's description; each box says its own.
    @usableFromInline var description: String { "AnySubscriber" }

    /// The wrapped subscriber's mirror; each box gives its own.
    @usableFromInline var customMirror: Mirror { Mirror(reflecting: description) }
}

@usableFromInline
internal final class SubscriberBox<Base: Subscriber>: ErasedSubscriber<Base.Input, Base.Failure> {
    @usableFromInline let base: Base

    @inlinable
    init(_ base: Base) {
        self.base = base
        super.init(
            onSubscription: { unsafeDowncast($0, to: SubscriberBox.self).base.receive(subscription: $1) },
            onValue: { unsafeDowncast($0, to: SubscriberBox.self).base.receive($1) },
            onCompletion: { unsafeDowncast($0, to: SubscriberBox.self).base.receive(completion: $1) })
    }

    /// Allocates the box; see ``ErasedSubscriber`` for why this is never inlined.
    @inlinable @inline(never)
    static func make(_ base: consuming Base) -> SubscriberBox { SubscriberBox(base) }

    @usableFromInline override var description: String { String(describing: base) }

    @usableFromInline override var customMirror: Mirror { Mirror(reflecting: base) }
}

@usableFromInline
internal final class ClosureSubscriberBox<Input, Failure: Error>: ErasedSubscriber<Input, Failure> {
    @usableFromInline let receiveSubscription: ((any Subscription) -> Void)?
    @usableFromInline let receiveValue: ((Input) -> Subscribers.Demand)?
    @usableFromInline let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    @inlinable
    init(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveValue: ((Input) -> Subscribers.Demand)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    ) {
        self.receiveSubscription = receiveSubscription
        self.receiveValue = receiveValue
        self.receiveCompletion = receiveCompletion
        super.init(
            onSubscription: { unsafeDowncast($0, to: ClosureSubscriberBox.self).receiveSubscription?($1) },
            onValue: { unsafeDowncast($0, to: ClosureSubscriberBox.self).receiveValue?($1) ?? .none },
            onCompletion: { unsafeDowncast($0, to: ClosureSubscriberBox.self).receiveCompletion?($1) })
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

    @usableFromInline override var description: String { "Anonymous AnySubscriber" }

    /// The mirror of the description, as Combine's: a `String`, with no children.
    @usableFromInline override var customMirror: Mirror { Mirror(reflecting: description) }
}

extension ErasedSubscriber {
    /// The box of `subscriber`, retained, when it is an ``AnySubscriber``; `nil` for any other.
    ///
    /// What a subscription keeps to call its subscriber for each value without a retain: a
    /// subscriber read from a `var` is retained and released around every call, while the box's
    /// entries are `let`s, which a call through ``Unmanaged/receive(_:)`` reaches unretained
    /// (Docs/FastWithoutTheSpecialiser.md, "A step called on every value, through a `let` of an
    /// object held unretained"). The subscription releases it where it lets go of the subscriber
    /// (``Optional/releaseKept()``), and in `deinit` if it never did. The type test compares
    /// metatypes, settled at compile time where the caller is specialised.
    @inlinable
    internal static func retainedBox<S: Subscriber>(of subscriber: S) -> Unmanaged<ErasedSubscriber>?
    where S.Input == Input, S.Failure == Failure {
        guard S.self == AnySubscriber<Input, Failure>.self else { return nil }
        return .passRetained(unsafeBitCast(subscriber, to: AnySubscriber<Input, Failure>.self).box)
    }
}

extension Unmanaged {
    /// Delivers `value` to the box this refers to, unretained: its holder keeps it alive (see
    /// ``ErasedSubscriber/retainedBox(of:)``).
    @inlinable
    internal func receive<Input, Failure>(_ value: Input) -> Subscribers.Demand
    where Instance == ErasedSubscriber<Input, Failure> {
        _withUnsafeGuaranteedRef { $0.onValue($0, value) }
    }
}

extension Optional {
    /// Empties this slot and releases the object it kept retained.
    ///
    /// Always inlined: its callers often run unspecialised (a `cancel()` reached through
    /// `any Subscription`), where a call left generic looked up the object's type, `Unmanaged` of
    /// it and `Optional` of that, three run-time metadata lookups (about 1,000 instructions) at
    /// every subscription's end; inlined, the slot is one pointer and needs none.
    @inlinable @inline(__always)
    internal mutating func releaseKept<Object>() where Wrapped == Unmanaged<Object> {
        let kept = self
        self = nil
        kept?.release()
    }
}
