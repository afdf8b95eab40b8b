/// What a subject needs from each of its subscriptions beyond values: completion.
@usableFromInline
package protocol SubjectConduitProtocol<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    func finish(_ completion: Subscribers.Completion<Failure>)
}

/// A subject's handle on one subscription: the conduit, and its value entry point.
///
/// `offer` is made where the subscriber's type is known (in the subject's `receive(subscriber:)`,
/// which specialises in the caller's module), so a `send` reaches a fully specialised delivery
/// path: no dynamic dispatch and no run-time generic metadata per value. It captures nothing,
/// so it costs no allocation. It takes the conduit as the entry keeps it, so a send hands it over
/// borrowed: converting it to `AnyObject` for the call made a copy, one more retain and release
/// of the conduit a value (4–5 ns of a 45 ns send).
@usableFromInline
package struct SubjectEntry<Output, Failure: Error> {
    @usableFromInline package let conduit: any SubjectConduitProtocol<Output, Failure>
    @usableFromInline package let offer: (any SubjectConduitProtocol<Output, Failure>, Output) -> Void

    @inlinable
    package init<Downstream: Subscriber>(_ conduit: SubjectSubscription<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.conduit = conduit
        self.offer = { unsafeDowncast($0 as AnyObject, to: SubjectSubscription<Downstream>.self).offer($1) }
    }

    /// Offers `value` to the subscription.
    @inlinable
    package func send(_ value: Output) {
        offer(conduit, value)
    }

    /// An entry for a conduit of another kind (a subject's ``SubjectSink``, TetherExtras' replay
    /// conduit).
    @inlinable
    package init(
        conduit: any SubjectConduitProtocol<Output, Failure>,
        offer: @escaping (any SubjectConduitProtocol<Output, Failure>, Output) -> Void
    ) {
        self.conduit = conduit
        self.offer = offer
    }
}

/// What a conduit needs from its subject: to be forgotten on cancel, and to be told of demand.
@usableFromInline
package protocol SubjectConduitParent: AnyObject {
    func detach(_ conduit: AnyObject)
    func acknowledgeDownstreamDemand()
}

/// A conduit's call on its subject, for the specialised entry a subject keeps: the conduit holds
/// its subject as `any SubjectConduitParent`, whose witnesses run unspecialised (see
/// ``ControlSignal``), so they only forward to a closure the subject made where its types were
/// known.
@usableFromInline
package enum SubjectParentSignal {
    case detach(AnyObject)
    case acknowledgeDownstreamDemand
}

/// A subject that keeps a specialised entry for its conduits' calls (see
/// ``SubjectParentSignal``): its `detach` and `acknowledgeDownstreamDemand` forward to the entry,
/// which runs these.
@usableFromInline
package protocol SpecializedSubjectParent: SubjectConduitParent {
    func detachNow(_ conduit: AnyObject)
    func acknowledgeDownstreamDemandNow()
}

extension SpecializedSubjectParent {
    /// The entry to keep, made in the subject's `@inlinable` initialiser so that it specialises
    /// for the concrete subject type.
    @inlinable
    package static var parentEntry: (AnyObject, SubjectParentSignal) -> Void {
        { object, signal in
            let subject = unsafeDowncast(object, to: Self.self)
            switch signal {
            case .detach(let conduit): subject.detachNow(conduit)
            case .acknowledgeDownstreamDemand: subject.acknowledgeDownstreamDemandNow()
            }
        }
    }
}

/// One subscriber's subscription to a subject.
///
/// The subject reaches `offer` through its ``SubjectEntry``, so the per-value path runs
/// specialised for the subscriber's type; requests and cancels come through `any Subscription`.
///
/// Calls into the subscriber are serialised by a ``DownstreamTurn``: a thread that sends while
/// another is delivering waits for its turn and then delivers its own value, so no thread
/// delivers another's values. A send or completion made from inside the subscriber's `receive`,
/// on the delivering thread, is delivered at once, nested in the call under way, as Combine's
/// recursive lock does (mattgallagher/CombineExploration's `testReentrancy`, run on Apple's
/// Combine: a sink that sends into its subject before recording its value records `[3, 2, 1]`).
/// A nested delivery takes the demand left after the outer one; the outer one's returned demand
/// counts once it returns.
///
/// Once demand is unlimited and nothing is owed (every `sink`, most subscribers), a value takes
/// the fast lane: in the sender's turn it goes to the subscriber kept in
/// ``HandOffSubscriptionBase/serial`` without the state's lock, and the ``lane`` says whether a
/// cancel left that subscriber for the turn to let go of (see ``SubjectLane``). A value that finds
/// the lane closed (limited demand, a latest value owed, the end) goes through the state machine.
@usableFromInline
package final class SubjectSubscription<Downstream: Subscriber>:
    HandOffSubscriptionBase<SubjectSubscriptionState<Downstream>, Downstream?>,
    SubjectConduitProtocol, Subscription, SpecializedControl,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline package typealias Output = Downstream.Input
    @usableFromInline package typealias Failure = Downstream.Failure

    @usableFromInline
    package typealias State = SubjectSubscriptionState<Downstream>

    /// `request` and `cancel`, specialised (see ``ControlSignal``).
    @usableFromInline
    package let control: (AnyObject, ControlSignal) -> Void

    /// Whose turn it is to call into the subscriber.
    @usableFromInline
    package let turn = DownstreamTurn()

    /// Guards the state machine, ``SubscriptionBase/state``: beside the lock rather than in it, and
    /// held by the base class, so that `deinit` (which runs unspecialised) looks up no type. After
    /// the turn, whose last four bytes it follows.
    @usableFromInline
    package let lock = Locked(())

    /// Open once demand is unlimited and nothing is owed; says whether the subscriber kept for the
    /// fast lane, ``HandOffSubscriptionBase/serial``, is owed a release (see ``SubjectLane``).
    @usableFromInline
    package let lane = SubjectLane()

    /// The lane's subscriber when it is an ``AnySubscriber`` (every subscriber larger than one is
    /// kept erased, see ``ConduitAttaching``): its box, retained here once and called unretained
    /// on every value, where `serial`, read from a `var`, would be retained and released around
    /// each call (Docs/FastWithoutTheSpecialiser.md, "A step called on every value, through a
    /// `let` of an object held unretained": the box's closures are its `let`s). `serial` is then
    /// `nil`. Touched only in the turn, as `serial` is, and let go of where it is.
    @usableFromInline @exclusivity(unchecked)
    internal var erasedSerial: Unmanaged<ErasedSubscriber<Output, Failure>>?

    /// - Parameters:
    ///   - latest: For a kind that keeps the latest value, the current value, owed on first
    ///     demand; values offered without demand then replace it instead of being dropped.
    @inlinable
    package init(
        kind: SubjectKind, downstream: Downstream, parent: any SubjectConduitParent, latest: Output?
    ) {
        control = SubjectSubscription.controlEntry
        erasedSerial = ErasedSubscriber.retainedBox(of: downstream)
        super.init(
            state: State(kind: kind, downstream: downstream, parent: parent, latest: latest),
            serial: erasedSerial == nil ? downstream : nil)
        Ledger.enter(self)
    }

    deinit {
        erasedSerial?.release()
        Ledger.leave(self)
    }

    /// Runs `body` on the state machine under the lock.
    @inlinable @inline(__always)
    package func withMachine<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { _ in body(&state) }
    }

    /// Hands the subscription to the subscriber, then delivers what it became owed meanwhile: the
    /// latest value its demand made due, then a completion the subject sent after attaching it and
    /// before this call (see ``SubjectSubscriptionState/finish(_:)``).
    @inlinable
    package func start(_ downstream: Downstream) {
        _ = inTurn {
            withMachine { $0.startHandingOver() }
            downstream.receive(subscription: self)
            let owed = withMachine { $0.endHandingOver() }
            drain()
            if let owed {
                complete(owed)
            }
        }
    }

    /// Offers a value the subject sent. With limited demand the value is weighed as it is sent,
    /// as Combine weighs it: it takes demand, or is dropped (a `CurrentValueSubject` keeps it as
    /// the latest), before the sender waits for a delivery under way on another thread. So a send
    /// that finds no demand returns at once, and demand that the busy subscriber returns counts
    /// only for values sent after it.
    ///
    /// Kept out of line: inlined into the subject's entry (``SubjectEntry``), whose conduit is a
    /// copy of the entry's reference, the call retained and released the subscription around
    /// every send (Docs/FastWithoutTheSpecialiser.md, "A subject's delivery kept out of its
    /// entry").
    @inlinable @inline(never)
    package func offer(_ value: Output) {
        if !lane.isOpen {
            switch withMachine({ $0.reserve(value) }) {
            case .dropped:
                return
            case .reserved(let taken, let downstream):
                inTurnOrNested {
                    // Dropped if the subscription ended while the value waited for its turn.
                    if !lane.isStopped { hand(taken, to: downstream) }
                }
                return
            case .takeInTurn:
                break
            }
        }
        inTurnOrNested { deliver(value) }
    }

    /// Runs `body` in this thread's turn, or at once, nested, when this thread is delivering
    /// already (a send or completion from inside the subscriber's `receive`), as in Combine.
    @inlinable
    package func inTurnOrNested(_ body: () -> Void) {
        if !inTurn(body) {
            body()
        }
    }

    /// Hands `value`, whose demand was taken, to `downstream`, then counts the demand it returns
    /// and delivers what that made due.
    @inlinable
    package func hand(_ value: Output, to downstream: Downstream) {
        let more = downstream.receive(value)
        // The usual case, nothing owed meanwhile, settles in the same lock as the demand.
        if withMachine({ $0.settle(more) }) { return }
        drain()
    }

    /// Delivers `value` in this thread's turn, or nested in a delivery of it.
    @inlinable
    package func deliver(_ value: Output) {
        if lane.isOpen {
            // Demand is unlimited, so what the subscriber returns changes nothing. A cancel or a
            // completion meanwhile leaves the subscriber for the end of the outermost turn to let
            // go of, so it is called where it is kept, nested deliveries too (both only read it).
            if let box = erasedSerial {
                _ = box.receive(value)
            } else {
                _ = InPlace.receive(value, by: &serial)
            }
            return
        }
        guard let (taken, downstream) = withMachine({ $0.take(value) }) else { return }
        hand(taken, to: downstream)
    }

    @inlinable
    package func finish(_ completion: Subscribers.Completion<Failure>) {
        inTurnOrNested { complete(completion) }
    }

    /// Completes the subscriber in this thread's turn, or nested in a delivery of it. The lane's
    /// subscriber is let go of at the end of the outermost turn, where no value is in flight.
    @inlinable
    package func complete(_ completion: Subscribers.Completion<Failure>) {
        guard let released = withMachine({ $0.finish(completion) }) else { return }
        lane.stop()
        released.downstream?.receive(completion: completion)
    }

    @inlinable
    package func request(_ demand: Subscribers.Demand) {
        control(self, .request(demand))
    }

    @inlinable
    package func cancel() {
        control(self, .cancel)
    }

    @inlinable
    package func requestNow(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(withMachine { $0.kind.name }) was asked for .none")
        let (parent, owes, opens) = withMachine { $0.request(demand) }
        // The owed value goes first, before the subject's upstreams are asked and send newer
        // ones. Asked from inside a delivery on this thread, the delivering frame picks it up
        // once the delivery returns, except from inside `receive(subscription:)`: there Combine
        // delivers a `CurrentValueSubject`'s value at once, within the request, and so does
        // Tether (one level deep: a request from inside that delivery is left for the drain).
        if owes, !inTurn({ drain() }), withMachine({ $0.takeHandingOver() }) {
            drain()
        }
        if opens || (owes && withMachine({ $0.lanePasses })) {
            lane.open()
        }
        parent?.acknowledgeDownstreamDemand()
    }

    @inlinable
    package func cancelNow() {
        guard let released = withMachine({ $0.cancel() }) else { return }
        lane.stop()
        // Otherwise a turn is in progress, on this thread or another, and lets go at its end.
        _ = turn.ifFree { releaseOwed() }
        released.parent?.detach(self)
    }

    /// Runs `body` in this thread's turn, then lets go of the lane's subscriber if a cancel left
    /// it owed (see ``SubjectLane/run(_:in:release:)``).
    /// - Returns: `false`, without running `body`, when this thread holds the turn already.
    @inlinable
    package func inTurn(_ body: () -> Void) -> Bool {
        lane.run(body, in: turn) { releaseSerial() }
    }

    /// Lets go of the lane's subscriber if a cancel left it owed. Only in the turn, where no value
    /// is in flight on the lane.
    @inlinable
    package func releaseOwed() {
        lane.releaseIfOwed { releaseSerial() }
    }

    /// Lets go of the lane's subscriber; in the turn, once the lane is stopped.
    @inlinable
    package func releaseSerial() {
        serial = nil
        erasedSerial.releaseKept()
    }

    /// Delivers the owed latest value once demand has made it due, in this thread's turn or
    /// nested in a delivery of it.
    @inlinable
    package func drain() {
        while let (value, downstream) = withMachine({ $0.next() }) {
            let more = downstream.receive(value)
            withMachine { $0.add(more) }
        }
    }

    @usableFromInline
    package var description: String { "\(withMachine { $0.kind.name })" }

    /// As Combine's: the subject (as `parent` and again as `subject`) and the subscriber, both
    /// `nil` once the subscription is over, and the demand outstanding (kept as it was then).
    @usableFromInline
    package var customMirror: Mirror {
        let (parent, downstream, demand) = withMachine { ($0.parent, $0.downstream, $0.demand) }
        return Mirror(
            self,
            children: [
                "parent": parent as Any,
                "downstream": downstream as Any,
                "demand": demand,
                "subject": parent as Any,
            ],
            ancestorRepresentation: .suppressed)
    }

    @usableFromInline
    package var playgroundDescription: Any { description }
}

/// The conduit's state machine; every method runs under the conduit's lock and calls nothing.
///
/// Invariants: `latest` (a `CurrentValueSubject`'s owed value) is kept only when a value finds no
/// demand (or, at first, the current value), and is due only once a request follows
/// (`latestRequested`); a due value is held while `demand` is zero, or until the thread that made
/// it due delivers it. Once `lanePasses`, demand is unlimited and `latest` is `nil` for good: that
/// is what lets values bypass the machine (see ``SubjectSubscription``).
@usableFromInline
package struct SubjectSubscriptionState<Downstream: Subscriber> {
    @usableFromInline package typealias Output = Downstream.Input
    @usableFromInline package typealias Failure = Downstream.Failure

    /// Everything released together at the end, outside the lock.
    @usableFromInline
    package struct Released {
        @usableFromInline package var downstream: Downstream?
        @usableFromInline package var parent: (any SubjectConduitParent)?
        @usableFromInline package var latest: Output?

        @inlinable
        package init(downstream: Downstream?, parent: (any SubjectConduitParent)?, latest: Output?) {
            self.downstream = downstream
            self.parent = parent
            self.latest = latest
        }
    }

    /// `nil` once completed or cancelled.
    @usableFromInline package var downstream: Downstream?
    @usableFromInline package var parent: (any SubjectConduitParent)?
    @usableFromInline package var demand = Subscribers.Demand.none
    /// `CurrentValueSubject` and `@Published` only: the value owed once demand arrives.
    @usableFromInline package var latest: Output?
    /// A request came after `latest` was kept, so it is due: delivered once there is demand for
    /// it. A value kept for want of demand is due only once the subscriber asks again, as in
    /// Combine, which offers a subscriber its subject's current value on a request, not on demand
    /// a delivery returns.
    @usableFromInline package var latestRequested = false
    /// Which subject this is: the subscription's description, and whether it keeps `latest`.
    @usableFromInline package let kind: SubjectKind
    @usableFromInline package var acknowledged = false
    /// The subscriber is inside `receive(subscription:)`, and has not yet been given a value
    /// from inside it.
    @usableFromInline package var handingOver = false
    /// The subscription has been handed to the subscriber (``SubjectSubscription/start(_:)`` has
    /// begun): only then may a completion go out.
    @usableFromInline package var handedOver = false
    /// A completion the subject sent before the subscription was handed over, for
    /// ``SubjectSubscription/start(_:)`` to deliver after it.
    @usableFromInline package var owedCompletion: Subscribers.Completion<Failure>?

    @inlinable
    package init(kind: SubjectKind, downstream: Downstream, parent: any SubjectConduitParent, latest: Output?) {
        self.kind = kind
        self.downstream = downstream
        self.parent = parent
        self.latest = latest
    }

    /// A value from the subject: the value to deliver now and the subscriber to deliver it to,
    /// or `nil` when it is kept as the latest or dropped for want of demand. A latest value that a
    /// request made due, not yet delivered, is older: it goes now, and this one is kept as the
    /// latest in its place, for the delivering frame to deliver next. One not requested is
    /// replaced by this one, as Combine counts its current value delivered once a newer one is.
    @inlinable
    package mutating func take(_ value: Output) -> (Output, Downstream)? {
        guard let downstream = admit(value) else { return nil }
        demand -= 1
        if latestRequested, let owed = latest {
            latest = value
            return (owed, downstream)
        }
        latest = nil
        return (value, downstream)
    }

    /// The subscriber to deliver `value` to when there is demand for it; otherwise `nil`, and a
    /// kind that keeps the latest keeps the value, until a request makes it due.
    @inlinable
    package mutating func admit(_ value: Output) -> Downstream? {
        guard let downstream else { return nil }
        guard demand > 0 else {
            if kind.keepsLatest {
                latest = value
                latestRequested = false
            }
            return nil
        }
        return downstream
    }

    /// What a value sent with limited demand does before its sender waits for its turn.
    @usableFromInline
    package enum Reservation {
        /// No demand (or the end): dropped, or kept as the latest by a kind that keeps it.
        case dropped
        /// Demand taken: deliver the value in the sender's turn, unless the end comes first.
        case reserved(Output, Downstream)
        /// A latest value is due: weighed in the sender's turn (``take(_:)``), after the due
        /// value's delivery, so that values keep the order they were sent in.
        case takeInTurn
    }

    /// A value from the subject, weighed as it is sent, before the sender waits for a delivery
    /// under way (see ``SubjectSubscription/offer(_:)``).
    @inlinable
    package mutating func reserve(_ value: Output) -> Reservation {
        guard let downstream = admit(value) else { return .dropped }
        if latestRequested, latest != nil { return .takeInTurn }
        latest = nil
        demand -= 1
        return .reserved(value, downstream)
    }

    /// A completion from the subject: what to release and complete now, or `nil` when the
    /// conduit is already done or has not handed the subscription over yet.
    ///
    /// The subject attaches a conduit under its lock and hands the subscription over after
    /// releasing it, so a completion sent from another thread can reach the conduit in between.
    /// It is kept, and goes out once the subscriber has its subscription: a subscriber must never
    /// see a completion before `receive(subscription:)` (a `merge` or `zip` fed by the subject
    /// would be told of an upstream that has not subscribed yet).
    @inlinable
    package mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Released? {
        guard downstream != nil else { return nil }
        guard handedOver else {
            if owedCompletion == nil { owedCompletion = completion }
            return nil
        }
        return terminate()
    }

    /// The subscription is about to be handed over, in the conduit's turn.
    @inlinable
    package mutating func startHandingOver() {
        handingOver = true
        handedOver = true
    }

    /// The subscriber's `receive(subscription:)` returned: the completion the subject sent before
    /// it, if any, to deliver now.
    @inlinable
    package mutating func endHandingOver() -> Subscribers.Completion<Failure>? {
        handingOver = false
        return owedCompletion.take()
    }

    /// The subscriber returned `more` demand from a delivery.
    @inlinable
    package mutating func add(_ more: Subscribers.Demand) {
        if downstream != nil { demand += more }
    }

    /// The owed latest value to deliver now that demand made it due, with the subscriber, or
    /// `nil` when none is due.
    @inlinable
    package mutating func next() -> (Output, Downstream)? {
        guard let downstream, demand > 0, latestRequested, let value = latest else { return nil }
        demand -= 1
        latest = nil
        latestRequested = false
        return (value, downstream)
    }

    /// The subscriber returned `more` demand from a delivery: whether nothing is due now. When
    /// something is, ``next()`` gives it.
    @inlinable
    package mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard downstream != nil else { return true }
        demand += more
        return latest == nil || !latestRequested || demand == .none
    }

    /// The subscriber asked for more: the parent to tell of first demand, and whether the
    /// owed latest value is now due, to be delivered in a turn.
    @inlinable
    package mutating func request(
        _ more: Subscribers.Demand
    ) -> (parent: (any SubjectConduitParent)?, owes: Bool, opensLane: Bool) {
        guard downstream != nil else { return (nil, false, false) }
        demand += more
        let parentToTell = acknowledged ? nil : parent
        acknowledged = true
        if latest != nil { latestRequested = true }
        return (parentToTell, latestRequested, lanePasses)
    }

    /// Whether values may take the fast lane: demand is unlimited with nothing owed. Once
    /// unlimited, demand stays so and no value is kept as the latest, so this stays true until
    /// the end; opening the lane again when it is open changes nothing.
    @inlinable
    package var lanePasses: Bool {
        downstream != nil && demand == .unlimited && latest == nil
    }

    /// A cancel: what to release, or `nil` when the conduit is already done.
    @inlinable
    package mutating func cancel() -> Released? {
        guard downstream != nil else { return nil }
        return terminate()
    }

    /// Whether the subscriber is inside `receive(subscription:)` with no value given yet; a
    /// value given now is the last one given from inside it.
    @inlinable
    package mutating func takeHandingOver() -> Bool {
        defer { handingOver = false }
        return handingOver
    }

    @inlinable
    package mutating func terminate() -> Released {
        defer {
            downstream = nil
            parent = nil
            latest = nil
        }
        return Released(downstream: downstream, parent: parent, latest: latest)
    }
}
