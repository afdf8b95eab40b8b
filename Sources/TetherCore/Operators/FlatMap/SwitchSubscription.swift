/// The subscription behind ``Publishers/SwitchToLatest``: the outer publisher's subscriber and
/// the downstream's subscription in one, as in Combine, with a ``SwitchState`` under its lock.
///
/// The downstream gets it as soon as it subscribes, before the outer publisher's subscription
/// arrives. Calls into the downstream take a ``DownstreamTurn``, so the outer publisher and the
/// current inner, which may deliver on different threads, reach it one at a time; a call made
/// from inside the downstream on the same thread goes straight in, as Combine's recursive lock
/// lets it. The downstream is held for the subscription's whole life, as in Combine.
@usableFromInline
internal final class SwitchSubscription<Upstream: Publisher, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where
    Upstream.Output: Publisher, Upstream.Output.Failure == Upstream.Failure,
    Downstream.Input == Upstream.Output.Output, Downstream.Failure == Upstream.Failure
{
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    /// Set in the initialiser rather than by a default value, which is compiled into a function
    /// of its own that copied the state out through its value witnesses.
    @usableFromInline let state: Locked<SwitchState>
    @usableFromInline let turn = DownstreamTurn()
    @usableFromInline let downstream: Downstream
    /// The inner publishers are `Just`s (or `Just`s given a failure type), whose one value is at
    /// hand: decided once, from the types (see ``isJust(_:)``).
    @usableFromInline let innersAreJust: Bool
    /// Whether the inner publishers are `AnyPublisher`s, which may erase a `Just` (see
    /// ``valueOfErasedJust(_:_:)``): decided once, from the types.
    @usableFromInline let erasedInners: ErasedInnerShape?

    @inlinable
    init(downstream: Downstream) {
        self.downstream = downstream
        state = Locked(SwitchState())
        innersAreJust = isJust(Upstream.Output.self)
        erasedInners = erasedInnerShape(Upstream.Output.self)
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Delivers a value in this thread's turn, or straight in from inside a call.
    @inlinable
    func deliver(_ body: () -> Subscribers.Demand) -> Subscribers.Demand {
        turn.nesting(body)
    }

    /// Delivers a completion in this thread's turn, or straight in from inside a call.
    @inlinable
    func deliver(_ body: () -> Void) {
        turn.nesting(body)
    }

    // MARK: Outer publisher

    @inlinable
    func receive(subscription: any Subscription) {
        guard state.withLock({ $0.attachOuter(subscription) }) else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        // A `Just` would only hand its value over through a subscription made for the purpose:
        // with demand outstanding, it is delivered as that subscription would deliver it, without
        // one (unless an introspection watches subscriptions).
        if innersAreJust, _fastPath(!IntrospectionRegistry.isActive) {
            return receiveAtHand(valueOfJust(input), input)
        }
        if let erasedInners, _fastPath(!IntrospectionRegistry.isActive) {
            return receiveErased(input, erasedInners)
        }
        return subscribeInner(input)
    }

    /// A new inner that is an `AnyPublisher`: taken at hand when it erases a `Just`, subscribed
    /// to otherwise. Out of line: its locals are of generic types (`Downstream.Input?`), whose
    /// metadata unspecialised code would otherwise look up on entry to ``receive(_:)`` for every
    /// inner, erased or not.
    @inlinable @inline(never)
    func receiveErased(_ input: Upstream.Output, _ shape: ErasedInnerShape) -> Subscribers.Demand {
        if let value = valueOfErasedJust(input, shape) {
            return receiveAtHand(value, input)
        }
        return subscribeInner(input)
    }

    /// Subscribes to a new inner, `input`, in place of the current one.
    @inlinable
    func subscribeInner(_ input: Upstream.Output) -> Subscribers.Demand {
        guard let (index, _) = start(state.withLock { $0.switchToNext() }) else { return .none }
        input.subscribe(Side(self, index: index))
        return .none
    }

    /// A new inner whose one value, `value`, is at hand: delivered when the downstream has demand,
    /// and the inner then completed; otherwise `input` is subscribed to as any inner is.
    @inlinable
    func receiveAtHand(_ value: Downstream.Input, _ input: Upstream.Output) -> Subscribers.Demand {
        guard let (index, deliver) = start(state.withLock { $0.switchToValueAtHand() }) else { return .none }
        guard deliver else {
            input.subscribe(Side(self, index: index))
            return .none
        }
        let more = self.deliver { downstream.receive(value) }
        if more > 0 {
            state.withLock { $0.delivered(more) }
        }
        // The inner finishes. (The completion is made only when it goes downstream: unspecialised,
        // making one looks its type up in the run time's metadata cache.)
        if state.withLock({ $0.innerCompleted(index, failed: false) }).finishes() {
            self.deliver { downstream.receive(completion: .finished) }
        }
        return .none
    }

    /// Cancels the inner that `next` replaces, if it had a subscription, and returns the new
    /// inner's number and whether its value goes downstream now; `nil` when it is ignored.
    @inlinable
    func start(_ next: consuming SwitchState.NextInner) -> (index: Int, deliver: Bool)? {
        switch consume next {
        case .ignore:
            return nil
        case .switched(let index, let deliver):
            return (index, deliver)
        case .replacing(let index, let deliver, let previous):
            previous.cancel()
            return (index, deliver)
        }
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        let failed = completion.isFailure
        switch state.withLock({ $0.outerCompleted(failed: failed) }) {
        case .nothing:
            return
        case .finish:
            deliver { downstream.receive(completion: completion) }
        case .fail(let inner):
            inner.cancel()
            deliver { downstream.receive(completion: completion) }
        }
    }

    // MARK: Downstream

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: SwitchToLatest was asked for .none")
        state.withLock { $0.request(demand) }.request(demand)
    }

    @inlinable
    func cancel() {
        let (inner, outer) = state.withLock { $0.cancel() }
        inner.cancel()
        outer.cancel()
    }

    // MARK: Inner publishers

    @inlinable
    func sideReceive(_ index: Int, subscription: any Subscription) {
        guard let demand = state.withLock({ $0.attachInner(subscription, index) }) else {
            subscription.cancel()
            return
        }
        if demand > 0 {
            subscription.request(demand)
        }
    }

    @inlinable
    func sideReceive(_ index: Int, _ value: Downstream.Input) -> Subscribers.Demand {
        guard state.withLock({ $0.innerValue(index) }) else { return .none }
        let more = deliver { downstream.receive(value) }
        if more > 0 {
            state.withLock { $0.delivered(more) }
        }
        return more
    }

    @inlinable
    func sideReceive(_ index: Int, completion: Subscribers.Completion<Failure>) {
        let failed = completion.isFailure
        switch state.withLock({ $0.innerCompleted(index, failed: failed) }) {
        case .nothing:
            return
        case .finish:
            deliver { downstream.receive(completion: completion) }
        case .fail(let outer):
            outer.cancel()
            deliver { downstream.receive(completion: completion) }
        }
    }

    @usableFromInline var description: String { "SwitchToLatest" }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
    @usableFromInline var playgroundDescription: Any { description }
}

/// Inner publisher number `index` is subscribed through a ``Side`` carrying that number.
extension SwitchSubscription: SideOwner {
    @usableFromInline var sideDescription: String { "SwitchToLatest" }

    /// The subscription a side belongs to, by its identifier, as Combine's.
    @usableFromInline
    func sideMirrorChildren(_ index: Int) -> KeyValuePairs<String, Any> {
        ["parentSubscription": combineIdentifier]
    }
}
