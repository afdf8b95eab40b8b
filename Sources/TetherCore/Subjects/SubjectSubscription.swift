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
/// another is delivering waits for its turn and then delivers its own value, and a send made
/// from inside the subscriber's `receive` on the delivering thread is left with the state
/// machine and delivered, in order, before the outer call returns. So concurrent and reentrant
/// sends never overlap in the subscriber, never recurse, and no thread delivers another's values.
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

    /// Something was left with the state machine from inside a delivery (a reentrant send or
    /// completion), for the turn's holder to drain. Only the holder's thread reads and writes it.
    @usableFromInline @exclusivity(unchecked)
    package var leftInTurn = false

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

    /// Hands the subscription to the subscriber, then delivers what it became owed meanwhile.
    @inlinable
    package func start(_ downstream: Downstream) {
        _ = inTurn {
            withMachine { $0.handingOver = true }
            downstream.receive(subscription: self)
            withMachine { $0.handingOver = false }
            drain()
        }
    }

    @inlinable
    package func offer(_ value: Output) {
        let ranInTurn = inTurn {
            if lane.isOpen {
                // Demand is unlimited, so what the subscriber returns changes nothing. A cancel
                // meanwhile leaves the subscriber for the end of this turn to let go of, so it
                // is called where it is kept.
                if let box = erasedSerial {
                    _ = box.receive(value)
                } else {
                    _ = InPlace.receive(value, by: &serial)
                }
                if leftInTurn {
                    drain()
                }
                return
            }
            guard let downstream = withMachine({ $0.take(value) }) else { return }
            let more = downstream.receive(value)
            // The usual case, nothing left meanwhile, settles without building an `Action`.
            if withMachine({ $0.settle(more) }) { return }
            drain()
        }
        if !ranInTurn {
            withMachine { $0.leave(value) }
            leftInTurn = true
        }
    }

    @inlinable
    package func finish(_ completion: Subscribers.Completion<Failure>) {
        let ranInTurn = inTurn {
            if let released = withMachine({ $0.finish(completion) }) {
                closeLane()
                released.downstream?.receive(completion: completion)
            }
        }
        if !ranInTurn {
            withMachine { $0.leave(completion) }
            leftInTurn = true
        }
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
        // ones. Asked from inside a delivery on this thread, the delivering frame's drain
        // picks it up, except from inside `receive(subscription:)`: there Combine delivers a
        // `CurrentValueSubject`'s value at once, within the request, and so does Tether (one
        // level deep: a request from inside that delivery is left for the drain).
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

    /// Ends the fast lane from the turn, after the state machine completed in it, and lets go of
    /// the subscriber kept for it.
    @inlinable
    package func closeLane() {
        lane.stop()
        releaseOwed()
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

    /// Delivers what was left or owed while this thread held the turn, until nothing is.
    /// Runs only in this thread's turn.
    @inlinable
    package func drain() {
        leftInTurn = false
        while true {
            switch withMachine({ $0.next() }) {
            case .idle:
                return
            case .deliver(let value, let downstream):
                let more = downstream.receive(value)
                withMachine { $0.add(more) }
            case .complete(let completion, let released):
                closeLane()
                released.downstream?.receive(completion: completion)
                return
            }
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
/// Invariants: `left` and `completion` are non-empty only while some thread holds the conduit's
/// turn (they are what reentrant calls left for it, and it drains them before giving the turn
/// up); `latest` (a `CurrentValueSubject`'s owed value) is only ever held while `demand` is
/// zero, or while the turn's holder has yet to drain it. Once `lanePasses`, demand is unlimited
/// and `latest` is `nil` for good: that is what lets values bypass the machine (see
/// ``SubjectSubscription``).
@usableFromInline
package struct SubjectSubscriptionState<Downstream: Subscriber> {
    @usableFromInline package typealias Output = Downstream.Input
    @usableFromInline package typealias Failure = Downstream.Failure

    @usableFromInline
    package enum Action {
        case idle
        case deliver(Output, Downstream)
        /// Completes the subscriber; everything else the conduit held is released with it.
        case complete(Subscribers.Completion<Failure>, Released)
    }

    /// Everything released together at the end, outside the lock.
    @usableFromInline
    package struct Released {
        @usableFromInline package var downstream: Downstream?
        @usableFromInline package var parent: (any SubjectConduitParent)?
        @usableFromInline package var left: SubjectLeftValues<Output>?
        @usableFromInline package var latest: Output?

        @inlinable
        package init(
            downstream: Downstream?, parent: (any SubjectConduitParent)?, left: SubjectLeftValues<Output>?,
            latest: Output?
        ) {
            self.downstream = downstream
            self.parent = parent
            self.left = left
            self.latest = latest
        }
    }

    /// `nil` once completed or cancelled.
    @usableFromInline package var downstream: Downstream?
    @usableFromInline package var parent: (any SubjectConduitParent)?
    @usableFromInline package var demand = Subscribers.Demand.none
    /// Values sent from inside a delivery, on the delivering thread; their demand is taken.
    @usableFromInline package var left: SubjectLeftValues<Output>?
    /// `CurrentValueSubject` and `@Published` only: the value owed once demand arrives.
    @usableFromInline package var latest: Output?
    /// Which subject this is: the subscription's description, and whether it keeps `latest`.
    @usableFromInline package let kind: SubjectKind
    /// A completion sent from inside a delivery, on the delivering thread.
    @usableFromInline package var completion: Subscribers.Completion<Failure>?
    @usableFromInline package var acknowledged = false
    /// The subscriber is inside `receive(subscription:)`, and has not yet been given a value
    /// from inside it.
    @usableFromInline package var handingOver = false

    @inlinable
    package init(kind: SubjectKind, downstream: Downstream, parent: any SubjectConduitParent, latest: Output?) {
        self.kind = kind
        self.downstream = downstream
        self.parent = parent
        self.latest = latest
    }

    /// A value from the subject, in the sender's turn: the subscriber to deliver it to, or `nil`
    /// when it is kept as the latest or dropped for want of demand.
    @inlinable
    package mutating func take(_ value: Output) -> Downstream? {
        guard let downstream, completion == nil else { return nil }
        guard demand > 0 else {
            if kind.keepsLatest { latest = value }
            return nil
        }
        demand -= 1
        return downstream
    }

    /// A value sent from inside a delivery on the delivering thread: kept for that thread's
    /// drain when there is demand for it (or as the latest), dropped otherwise.
    @inlinable
    package mutating func leave(_ value: Output) {
        guard downstream != nil, completion == nil else { return }
        // An owed latest value is older than this one: it goes ahead of it.
        if demand > 0, let owed = latest {
            demand -= 1
            latest = nil
            keep(owed)
        }
        guard demand > 0 else {
            if kind.keepsLatest { latest = value }
            return
        }
        demand -= 1
        keep(value)
    }

    /// Keeps a value for the drain, making the queue on the first.
    @inlinable
    package mutating func keep(_ value: Output) {
        uniqueLeft().values.append(value)
    }

    /// The queue of values left, made or copied first where this state does not own it alone:
    /// the state stays a value, whose copies do not share what they are left.
    @inlinable
    package mutating func uniqueLeft() -> SubjectLeftValues<Output> {
        if !isKnownUniquelyReferenced(&left) {
            left = SubjectLeftValues(copying: left)
        }
        return left.unsafelyUnwrapped
    }

    /// A completion sent from inside a delivery on the delivering thread: kept for its drain.
    @inlinable
    package mutating func leave(_ completion: Subscribers.Completion<Failure>) {
        guard downstream != nil, self.completion == nil else { return }
        self.completion = completion
    }

    /// A completion from the subject, in its sender's turn: what to release and complete now,
    /// or `nil` when the conduit is already done.
    @inlinable
    package mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Released? {
        guard downstream != nil, self.completion == nil else { return nil }
        return terminate()
    }

    /// The subscriber returned `more` demand from a delivery.
    @inlinable
    package mutating func add(_ more: Subscribers.Demand) {
        if downstream != nil { demand += more }
    }

    /// What to deliver next in the turn: the oldest value left, then the owed latest value,
    /// then the completion left.
    @inlinable
    package mutating func next() -> Action {
        guard let downstream else { return .idle }
        if left?.values.isEmpty == false, let value = uniqueLeft().values.popFirst() {
            return .deliver(value, downstream)
        }
        if demand > 0, let value = latest {
            demand -= 1
            latest = nil
            return .deliver(value, downstream)
        }
        if let completion {
            return .complete(completion, terminate())
        }
        return .idle
    }

    /// The subscriber returned `more` demand from a delivery: whether the turn can end now
    /// (nothing left, owed or completed meanwhile). When it cannot, ``next()`` says what comes
    /// next.
    @inlinable
    package mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard downstream != nil else { return true }
        demand += more
        return (left?.values.isEmpty ?? true) && completion == nil && (latest == nil || demand == .none)
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
        return (parentToTell, latest != nil, lanePasses)
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
            left = nil
            latest = nil
        }
        return Released(downstream: downstream, parent: parent, left: left, latest: latest)
    }
}
