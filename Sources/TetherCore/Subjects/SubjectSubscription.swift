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
