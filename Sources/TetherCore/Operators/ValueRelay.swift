// A run of `map`, `filter` and `compactMap` operators subscribes as one relay whose closure is
// theirs composed: each operator's `receive(subscriber:)` hands its closure to its upstream's
// `_receive(subscriber:map:)` (or `filter:`, `compactMap:`); one of these operators composes it
// with its own and hands the result further up, and any other publisher takes the default
// below, which subscribes one `ValueRelay`. Each wrapping the next instead, six
// `map { }.filter { }` pairs made a subscriber twelve relays deep, of a type that grew at every
// level: the compiler stops specialising such a chain after a few levels (it takes it for an
// endless specialisation loop), so the rest of the chain ran unspecialised, and each level
// copied the whole chain below it through run-time value witnesses. Passed up instead, the
// subscriber keeps its type all the way.

extension Publisher {
    /// Attaches `subscriber` through a relay that runs `transform` on each value.
    /// - Parameters:
    ///   - subscriber: The subscriber to attach.
    ///   - transform: The closure to run on each value before `subscriber` receives it.
    @inlinable
    public func _receive<S: Subscriber>(subscriber: S, map transform: @escaping (Output) -> S.Input)
    where S.Failure == Failure {
        receive(subscriber: ValueRelay(downstream: subscriber, step: MapStep(transform)))
    }

    /// Attaches `subscriber` through a relay that passes on the values `isIncluded` accepts.
    /// - Parameters:
    ///   - subscriber: The subscriber to attach.
    ///   - isIncluded: The test each value must pass for `subscriber` to receive it.
    @inlinable
    public func _receive<S: Subscriber>(subscriber: S, filter isIncluded: @escaping (Output) -> Bool)
    where S.Input == Output, S.Failure == Failure {
        receive(subscriber: ValueRelay(downstream: subscriber, step: FilterStep(isIncluded)))
    }

    /// Attaches `subscriber` through a relay that runs `transform` on each value and passes on
    /// its non-`nil` results.
    /// - Parameters:
    ///   - subscriber: The subscriber to attach.
    ///   - transform: The closure to run on each value; `nil` drops the value.
    @inlinable
    public func _receive<S: Subscriber>(subscriber: S, compactMap transform: @escaping (Output) -> S.Input?)
    where S.Failure == Failure {
        receive(subscriber: ValueRelay(downstream: subscriber, step: CompactMapStep(transform)))
    }
}

/// What a ``ValueRelay`` does with each value: the value to pass on, or `nil` to drop it.
@usableFromInline
internal protocol RelayStep {
    associatedtype Input
    associatedtype Output

    /// The operator the relay stands for, which is what the relay calls itself.
    static var name: String { get }

    func apply(_ input: Input) -> Output?
}

@usableFromInline
internal struct MapStep<Input, Output>: RelayStep {
    @usableFromInline let transform: (Input) -> Output

    @inlinable
    init(_ transform: @escaping (Input) -> Output) { self.transform = transform }

    @inlinable
    static var name: String { "Map" }

    @inlinable
    func apply(_ input: Input) -> Output? { transform(input) }
}

@usableFromInline
internal struct FilterStep<Value>: RelayStep {
    @usableFromInline let isIncluded: (Value) -> Bool

    @inlinable
    init(_ isIncluded: @escaping (Value) -> Bool) { self.isIncluded = isIncluded }

    @inlinable
    static var name: String { "Filter" }

    @inlinable
    func apply(_ input: Value) -> Value? { isIncluded(input) ? input : nil }
}

@usableFromInline
internal struct CompactMapStep<Input, Output>: RelayStep {
    @usableFromInline let transform: (Input) -> Output?

    @inlinable
    init(_ transform: @escaping (Input) -> Output?) { self.transform = transform }

    @inlinable
    static var name: String { "CompactMap" }

    @inlinable
    func apply(_ input: Input) -> Output? { transform(input) }
}

/// The subscriber of a `map`, a `filter` or a `compactMap`, or of a run of them.
///
/// Demand passes through unchanged, except that each value the step drops is compensated with a
/// demand of one; the subscription is the upstream's own. Its type names only the step and the
/// downstream, not the operators' upstream publishers.
@usableFromInline
internal struct ValueRelay<Step: RelayStep, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Step.Output {
    @usableFromInline typealias Input = Step.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let step: Step
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, step: Step) {
        self.downstream = downstream
        self.step = step
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let output = step.apply(input) else { return .max(1) }
        return downstream.receive(output)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }

    @usableFromInline var description: String { Step.name }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}
