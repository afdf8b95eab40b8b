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
/// so it costs no allocation.
@usableFromInline
package struct SubjectEntry<Output, Failure: Error> {
    @usableFromInline package let conduit: any SubjectConduitProtocol<Output, Failure>
    @usableFromInline package let offer: (AnyObject, Output) -> Void

    @inlinable
    package init<Downstream: Subscriber>(_ conduit: SubjectConduit<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.conduit = conduit
        self.offer = { unsafeDowncast($0, to: SubjectConduit<Downstream>.self).offer($1) }
    }

    /// An entry for a conduit of another kind (TetherExtras' replay conduit).
    @inlinable
    package init(conduit: any SubjectConduitProtocol<Output, Failure>, offer: @escaping (AnyObject, Output) -> Void) {
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
/// Delivery is serialised by a drain loop rather than by a lock held across calls: a value or a
/// completion that arrives while another is being delivered is queued (its demand already
/// counted) and delivered by the thread that is delivering, after the current call returns. So
/// concurrent and reentrant sends never overlap in the subscriber and never recurse.
@usableFromInline
package final class SubjectConduit<Downstream: Subscriber>: StateHolder<SubjectConduitState<Downstream>>,
    SubjectConduitProtocol, Subscription, SpecializedControl,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline package typealias Output = Downstream.Input
    @usableFromInline package typealias Failure = Downstream.Failure

    @usableFromInline
    package typealias State = SubjectConduitState<Downstream>

    /// `request` and `cancel`, specialised (see ``ControlSignal``).
    @usableFromInline
    package let control: (AnyObject, ControlSignal) -> Void

    /// Guards the state machine, ``StateHolder/state``: beside the lock rather than in it, and
    /// held by the base class, so that `deinit` (which runs unspecialised) looks up no type.
    @usableFromInline
    package let lock = Locked(())

    @usableFromInline
    package let name: StaticString

    /// - Parameters:
    ///   - latest: For a `CurrentValueSubject`, the current value, owed on first demand; values
    ///     offered without demand then replace it instead of being dropped.
    @inlinable
    package init(
        name: StaticString, downstream: Downstream, parent: any SubjectConduitParent, latest: Output??
    ) {
        control = SubjectConduit.controlEntry
        self.name = name
        super.init(state: State(downstream: downstream, parent: parent, latest: latest))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Runs `body` on the state machine under the lock.
    @inlinable @inline(__always)
    package func withMachine<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { _ in body(&state) }
    }

    /// Hands the subscription to the subscriber, then delivers whatever arrived meanwhile.
    @inlinable
    package func start(_ downstream: Downstream) {
        downstream.receive(subscription: self)
        // Settled with a `Bool` in the usual case, as in `offer`.
        if withMachine({ $0.settle(.none) }) { return }
        perform(withMachine { $0.next() })
    }

    @inlinable
    package func offer(_ value: Output) {
        if let downstream = withMachine({ $0.offer(value) }) {
            let more = downstream.receive(value)
            // The usual case, nothing arrived meanwhile, settles without building an `Action`
            // (copying that enum out of the lock costs more than the rest of the send).
            if withMachine({ $0.settle(more) }) { return }
            perform(withMachine { $0.next() })
        }
    }

    @inlinable
    package func finish(_ completion: Subscribers.Completion<Failure>) {
        if let released = withMachine({ $0.finish(completion) }) {
            released.downstream?.receive(completion: completion)
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
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        let (parent, owed) = withMachine { $0.request(demand) }
        parent?.acknowledgeDownstreamDemand()
        if let (value, downstream) = owed {
            let more = downstream.receive(value)
            if withMachine({ $0.settle(more) }) { return }
            perform(withMachine { $0.next() })
        }
    }

    @inlinable
    package func cancelNow() {
        let released = withMachine { $0.terminate() }
        released.parent?.detach(self)
    }

    /// Runs the drain loop's actions until the machine goes idle.
    @inlinable
    package func perform(_ action: State.Action) {
        var action = action
        while true {
            switch action {
            case .idle:
                return
            case .deliver(let value, let downstream):
                let more = downstream.receive(value)
                action = withMachine { $0.delivered(more) }
            case .complete(let completion, let released):
                released.downstream?.receive(completion: completion)
                return
            }
        }
    }

    @usableFromInline
    package var description: String { "\(name)" }

    @usableFromInline
    package var customMirror: Mirror {
        let demand = withMachine { $0.demand }
        return Mirror(self, children: ["downstreamDemand": demand])
    }

    @usableFromInline
    package var playgroundDescription: Any { description }
}

/// The conduit's state machine; every method runs under the conduit's lock and calls nothing.
///
/// Invariant: `latest` (a `CurrentValueSubject`'s owed value) is only ever held while `demand`
/// is zero, so everything in `queue` is older than it.
@usableFromInline
package struct SubjectConduitState<Downstream: Subscriber> {
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
        @usableFromInline package var queue: [Output]
        @usableFromInline package var latest: Output?

        @inlinable
        package init(downstream: Downstream?, parent: (any SubjectConduitParent)?, queue: [Output], latest: Output?) {
            self.downstream = downstream
            self.parent = parent
            self.queue = queue
            self.latest = latest
        }
    }

    /// `nil` once completed or cancelled.
    @usableFromInline package var downstream: Downstream?
    @usableFromInline package var parent: (any SubjectConduitParent)?
    @usableFromInline package var demand = Subscribers.Demand.none
    /// A call into the subscriber is under way (initially: handing over the subscription).
    @usableFromInline package var delivering = true
    /// Values accepted while `delivering`; their demand is already taken.
    @usableFromInline package var queue: [Output] = []
    /// `CurrentValueSubject` only: the value owed once demand arrives.
    @usableFromInline package var latest: Output?
    @usableFromInline package let keepsLatest: Bool
    /// A completion accepted while `delivering`.
    @usableFromInline package var completion: Subscribers.Completion<Failure>?
    @usableFromInline package var acknowledged = false

    @inlinable
    package init(downstream: Downstream, parent: any SubjectConduitParent, latest: Output??) {
        self.downstream = downstream
        self.parent = parent
        self.keepsLatest = latest != nil
        self.latest = latest ?? nil
    }

    /// A value from the subject: the subscriber to deliver it to now, or `nil` when it is queued,
    /// kept as the latest, or dropped for want of demand.
    @inlinable
    package mutating func offer(_ value: Output) -> Downstream? {
        guard let downstream, completion == nil else { return nil }
        guard demand > 0 else {
            if keepsLatest { latest = value }
            return nil
        }
        demand -= 1
        if delivering {
            queue.append(value)
            return nil
        }
        delivering = true
        return downstream
    }

    /// A completion from the subject: what to release and complete now, or `nil` when it waits
    /// for the delivery under way (or the conduit is already done).
    @inlinable
    package mutating func finish(_ completion: Subscribers.Completion<Failure>) -> Released? {
        guard downstream != nil, self.completion == nil else { return nil }
        if delivering {
            self.completion = completion
            return nil
        }
        return terminate()
    }

    /// A call into the subscriber returned `more` demand: what to deliver next.
    @inlinable
    package mutating func delivered(_ more: Subscribers.Demand) -> Action {
        settle(more) ? .idle : next()
    }

    /// What to deliver after a delivery that did not ``settle(_:)``: the oldest queued value,
    /// then the owed latest value, then the completion.
    @inlinable
    package mutating func next() -> Action {
        guard let downstream else {
            delivering = false
            return .idle
        }
        if !queue.isEmpty {
            // A drained queue keeps its buffer: steady bursts then cost no allocation.
            let value = queue.removeFirst()
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
        delivering = false
        return .idle
    }

    /// A call into the subscriber returned `more` demand: whether that ends the delivery
    /// (nothing queued, owed or completed meanwhile). When it does not, ``next()`` says what
    /// comes next.
    @inlinable
    package mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard downstream != nil else {
            delivering = false
            return true
        }
        demand += more
        guard queue.isEmpty, completion == nil, latest == nil || demand == .none else { return false }
        delivering = false
        return true
    }

    /// The subscriber asked for more: the parent to tell of first demand, and the owed value to
    /// deliver now, with the subscriber to deliver it to. (Not an ``Action``: copying that enum
    /// out of the lock costs more than the rest of the request.)
    @inlinable
    package mutating func request(
        _ more: Subscribers.Demand
    ) -> (parent: (any SubjectConduitParent)?, owed: (Output, Downstream)?) {
        guard let downstream else { return (nil, nil) }
        demand += more
        let parentToTell = acknowledged ? nil : parent
        acknowledged = true
        guard let value = latest else { return (parentToTell, nil) }
        // The owed value is the newest the subscriber has not seen: it goes out now, or after
        // the delivery under way (behind anything queued, which is older).
        demand -= 1
        latest = nil
        if delivering {
            queue.append(value)
            return (parentToTell, nil)
        }
        delivering = true
        return (parentToTell, (value, downstream))
    }

    @inlinable
    package mutating func terminate() -> Released {
        defer {
            downstream = nil
            parent = nil
            queue = []
            latest = nil
        }
        return Released(downstream: downstream, parent: parent, queue: queue, latest: latest)
    }
}
