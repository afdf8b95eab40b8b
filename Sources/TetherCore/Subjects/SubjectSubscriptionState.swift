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
