/// The subscription behind ``Publishers/FlatMap``: the upstream's subscriber, the downstream's
/// subscription, and the owner of the inner publishers' subscriptions.
///
/// Decisions are made by a ``FlattenState`` under one lock; the subscription performs them after
/// unlocking, so no lock is held while it calls the upstream, an inner, the downstream or the
/// transform. The downstream itself is a stored property of its own (``HandOffSubscriptionBase/serial``)
/// touched only by whoever holds the machine's drain token, which is what serialises values from
/// several inners.
@usableFromInline
internal final class FlattenSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
    HandOffSubscriptionBase<
        FlattenSubscriptionState<
            FlattenState<NewPublisher.Output, Upstream.Failure>, (Upstream.Output) -> NewPublisher
        >,
        Downstream?
    >,
    Subscriber, Subscription, SpecializedControl, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
where
    NewPublisher.Failure == Upstream.Failure, Downstream.Input == NewPublisher.Output,
    Downstream.Failure == Upstream.Failure
{
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure
    @usableFromInline typealias Machine = FlattenState<NewPublisher.Output, Upstream.Failure>
    @usableFromInline typealias Transform = (Upstream.Output) -> NewPublisher

    /// What the subscription tells its downstream, through ``downstreamEntry``.
    @usableFromInline
    internal enum DownstreamSignal {
        case subscription
        case value(NewPublisher.Output)
        case completion(Subscribers.Completion<Failure>)
    }

    /// Calls the downstream, for the holder of the drain token. Made in the initialiser, so that
    /// each flattening level reaches the next one through it: called directly, a chain of nested
    /// flattening operators is one ever-deeper chain of specialisations, which the compiler cuts
    /// off after four levels (the fifth then ran unspecialised, about twenty times slower).
    @usableFromInline
    internal let downstreamEntry: (AnyObject, DownstreamSignal) -> Subscribers.Demand

    /// `request` and `cancel`, specialised (see ``ControlSignal``).
    @usableFromInline
    internal let control: (AnyObject, ControlSignal) -> Void

    /// Guards `state.machine` and `state.transform`. (The generic state lives in ``SubscriptionBase``,
    /// beside the lock rather than in it, so that this `deinit` looks up no type.)
    @usableFromInline
    internal let lock = Locked(())

    @usableFromInline
    internal let name: StaticString

    /// The inner publishers are `Just`s (or `Just`s given a failure type), whose one value is at
    /// hand: decided once, from the types (see ``isJust(_:)``).
    @usableFromInline
    internal let innersAreJust = isJust(NewPublisher.self)

    /// Whether the inner publishers are `AnyPublisher`s, which may erase a `Just` (see
    /// ``valueOfErasedJust(_:_:)``): decided once, from the types.
    @usableFromInline
    internal let erasedInners = erasedInnerShape(NewPublisher.self)

    /// The downstream when it is an ``AnySubscriber``: its box, retained here once and called
    /// unretained for each value, where the downstream read from the state would be retained and
    /// released around each call (see ``SubjectSubscription/erasedSerial``). Touched, and let go
    /// of, only by the holder of the drain token, as the downstream in `serial` is.
    @usableFromInline @exclusivity(unchecked)
    internal var erasedDownstream: Unmanaged<ErasedSubscriber<Downstream.Input, Downstream.Failure>>?

    @inlinable
    internal init(
        name: StaticString, maxPublishers: Subscribers.Demand, downstream: Downstream,
        transform: @escaping Transform
    ) {
        self.name = name
        downstreamEntry = { object, signal in
            let subscription = unsafeDowncast(object, to: FlattenSubscription.self)
            switch signal {
            case .subscription:
                subscription.holdingToken.receive(subscription: subscription)
                return .none
            case .value(let value):
                if let box = subscription.erasedDownstream {
                    return box.receive(value)
                }
                // Called where it is kept (``InPlace``): only the drain token's holder touches it,
                // and it is a property of its own, so the access overlaps nothing another thread
                // changes under the lock (as a field of `state`, it did: ThreadSanitizer reported
                // the `inout` access to the field as one to the whole property).
                return InPlace.receive(value, by: &subscription.serial)
            case .completion(let completion):
                subscription.holdingToken.receive(completion: completion)
                return .none
            }
        }
        control = FlattenSubscription.controlEntry
        erasedDownstream = ErasedSubscriber.retainedBox(of: downstream)
        super.init(
            state: FlattenSubscriptionState(machine: Machine(maxPublishers: maxPublishers), transform: transform),
            serial: downstream)
        Ledger.enter(self)
    }

    deinit {
        erasedDownstream?.release()
        Ledger.leave(self)
    }

    /// Runs `body` on the state machine under the lock.
    @inlinable @inline(__always)
    internal func withMachine<Result>(_ body: (inout Machine) -> Result) -> Result {
        lock.withLock { _ in body(&state.machine) }
    }

    /// Hands the downstream its subscription, before the upstream is subscribed to (as Combine
    /// does): the machine starts with the token held for this very call.
    @inlinable
    internal func start() {
        _ = downstreamEntry(self, .subscription)
        if withMachine({ $0.settle(.none) }) { return }
        perform(withMachine { $0.delivered(.none) })
    }

    // MARK: Upstream

    @inlinable
    internal func receive(subscription: any Subscription) {
        guard let demand = withMachine({ $0.subscribed(subscription) }) else {
            subscription.cancel()
            return
        }
        subscription.request(demand)
    }

    @inlinable
    internal func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        guard let transform = lock.withLock({ _ in self.state.transform }) else { return .none }
        let publisher = transform(input)
        // A `Just`, erased or not, needs no subscription: its value is at hand (unless an
        // introspection watches subscriptions).
        if innersAreJust, _fastPath(!IntrospectionRegistry.isActive) {
            receiveImmediate(valueOfJust(publisher))
            return .none
        }
        if let erasedInners, _fastPath(!IntrospectionRegistry.isActive) {
            receiveErased(publisher, erasedInners)
            return .none
        }
        subscribeInner(publisher)
        return .none
    }

    /// A new inner that is an `AnyPublisher`: taken at hand when it erases a `Just`, subscribed
    /// to otherwise. Out of line: its locals are of generic types (`NewPublisher.Output?`), whose
    /// metadata unspecialised code would otherwise look up on entry to ``receive(_:)`` for every
    /// inner, erased or not.
    @inlinable @inline(never)
    internal func receiveErased(_ publisher: NewPublisher, _ shape: ErasedInnerShape) {
        if let value = valueOfErasedJust(publisher, shape) {
            receiveImmediate(value)
        } else {
            subscribeInner(publisher)
        }
    }

    /// Subscribes to a new inner publisher, when the machine has room for it.
    @inlinable
    internal func subscribeInner(_ publisher: NewPublisher) {
        if let index = withMachine({ $0.reserve() }) {
            publisher.subscribe(Side(self, index: index))
        }
    }

    /// An inner publisher whose one value is at hand: delivered (or queued with its demand used)
    /// as an inner's value would be, and then that inner counts as finished; or buffered, when it
    /// stays among the inners until its value is delivered (see ``FlattenState/immediate(_:)``).
    @inlinable
    internal func receiveImmediate(_ value: NewPublisher.Output) {
        switch withMachine({ $0.immediate(value) }) {
        case .drop, .buffered:
            return
        case .queued:
            break
        case .deliver:
            let more = downstreamEntry(self, .value(value))
            if settled(withMachine { $0.settleImmediate(more) }) { return }
            perform(withMachine { $0.delivered(more) })
        }
        perform(withMachine { $0.immediateFinished() })
    }

    /// Acts on a quick transition: `false` when it was not taken.
    @inlinable
    internal func settled(_ settlement: consuming FlattenSettlement) -> Bool {
        switch settlement {
        case .unsettled:
            return false
        case .settled:
            return true
        case .settledAsking(let upstream, let demand):
            upstream.request(demand)
            return true
        }
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        switch completion {
        case .finished:
            switch withMachine({ $0.upstreamFinishedQuietly() }) {
            case false?:
                return
            case true?:
                // Made where it is passed: a variable handed over was copied.
                perform(Machine.Effects(drain: .complete(.finished)))
            case nil:
                perform(withMachine { $0.upstreamFinished() })
            }
        case .failure(let error):
            // Cancelled before the downstream is told, as in Combine; the machine traps if the
            // upstream completes again meanwhile.
            for inner in withMachine({ $0.upstreamFailed(error) }) { inner.cancel() }
            perform(withMachine { $0.innersCancelled() })
        }
    }

    // MARK: Inners

    @inlinable
    internal func sideReceive(_ index: Int, subscription: any Subscription) {
        switch withMachine({ $0.innerSubscribed(index, subscription) }) {
        case nil:
            subscription.cancel()
        case let demand?:
            if demand > 0 { subscription.request(demand) }
        }
    }

    @inlinable
    internal func sideReceive(_ index: Int, _ value: NewPublisher.Output) -> Subscribers.Demand {
        switch withMachine({ $0.innerValue(index, value) }) {
        case .drop, .buffered:
            return .none
        case .queued(let ask):
            return ask
        case .deliver(let ask):
            let more = downstreamEntry(self, .value(value))
            if !withMachine({ $0.settle(more) }) {
                perform(withMachine { $0.delivered(more) })
            }
            return ask
        }
    }

    @inlinable
    internal func sideReceive(_ index: Int, completion: Subscribers.Completion<NewPublisher.Failure>) {
        switch completion {
        case .finished:
            if settled(withMachine { $0.finishInnerQuietly(index) }) { return }
            perform(withMachine { $0.innerFinished(index) })
        case .failure(let error):
            perform(withMachine { $0.innerFailed(index, error) })
        }
    }

    // MARK: Downstream

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        control(self, .request(demand))
    }

    @inlinable
    internal func cancel() {
        control(self, .cancel)
    }

    @inlinable
    internal func requestNow(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        if withMachine({ $0.requestQuietly(demand) }) { return }
        perform(withMachine { $0.request(demand) })
    }

    @inlinable
    internal func cancelNow() {
        releaseTransform()
        perform(withMachine { $0.cancel() })
    }

    // MARK: Performing

    /// The downstream, for the holder of the drain token.
    @inlinable
    internal var holdingToken: Downstream {
        guard let downstream = serial else {
            preconditionFailure("\(name) delivered without its downstream: the drain token was not held")
        }
        return downstream
    }

    /// Makes the calls the machine asked for, then runs the drain loop until the token is free
    /// or the downstream let go of.
    @inlinable
    internal func perform(_ effects: consuming Machine.Effects) {
        var unlimited: [any Subscription] = []
        while true {
            // The request and the drain are moved out, not read in place: read, each was copied
            // and the copy destroyed, through the effects' value witnesses.
            for subscription in effects.cancels { subscription.cancel() }
            if let request = effects.request.take() { request.subscription.request(request.demand) }
            if !effects.unlimited.isEmpty { unlimited += effects.unlimited }
            var drain = Machine.Drain.idle
            swap(&drain, &effects.drain)
            switch consume drain {
            case .idle:
                for subscription in unlimited { subscription.request(.unlimited) }
                return
            case .deliver(let value):
                let more = downstreamEntry(self, .value(value))
                effects = withMachine { $0.delivered(more) }
            case .complete(let completion):
                // The transform goes first: the stream is over, so it has nothing left to make.
                releaseTransform()
                _ = downstreamEntry(self, .completion(completion))
                effects = withMachine { $0.delivered(.none) }
            case .release:
                let released = serial.take()
                erasedDownstream.releaseKept()
                releaseTransform()
                _ = released
                return
            }
        }
    }

    @inlinable
    internal func releaseTransform() {
        let released = lock.withLock { _ in self.state.transform.take() }
        _ = released
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    /// No children, as Combine's.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

/// Each inner publisher is subscribed through a ``Side`` that names its slot.
extension FlattenSubscription: SideOwner {
    @usableFromInline internal var sideDescription: String { "\(name)" }

    /// The subscription a side belongs to, by its identifier, as Combine's.
    @usableFromInline
    internal func sideMirrorChildren(_ index: Int) -> KeyValuePairs<String, Any> {
        ["parentSubscription": combineIdentifier]
    }
}
