/// The upstream of a ``FlattenState`` (the publisher of publishers) as the machine sees it.
///
/// This and ``FlattenInners`` stand outside the generic machine so that they are not generic
/// themselves: the subscription's `deinit` runs unspecialised, and every generic type in the state it
/// destroys costs a run-time type lookup there. The live upstream's subscription is kept beside
/// it (``FlattenState/upstreamSubscription``), so that the many checks of where the upstream
/// stands copy a plain value, not an existential.
@usableFromInline
internal enum FlattenLink {
    /// Not subscribed yet: its publishers and its completion are taken all the same.
    case awaitingSubscription
    /// Subscribed: the subscription is ``FlattenState/upstreamSubscription``.
    case live
    /// Finished normally; the inners may still be running.
    case finished
    /// Failed, and the inners are being cancelled: another completion from the upstream now
    /// traps, as Combine's does.
    case failing
    /// Failed, cancelled, let go of after an inner's failure, or the whole stream is over.
    case terminal
}

/// How a quick transition of a ``FlattenState`` went: not taken (the caller makes the full
/// transition), or done, perhaps with one more publisher to ask of the upstream.
@usableFromInline
internal enum FlattenSettlement {
    case unsettled
    case settled
    /// Done; ask this upstream subscription for this many more publishers.
    case settledAsking(any Subscription, Subscribers.Demand)

    @inlinable
    var isSettled: Bool {
        if case .unsettled = self { return false }
        return true
    }
}

/// The state machine behind ``Publishers/FlatMap``.
///
/// Every method runs under the storage's lock and calls nothing: it returns ``Effects`` that the
/// storage performs after unlocking. Values from several inner publishers reach the downstream
/// one at a time through a drain token (``delivering``): whoever finds it free and has demand
/// takes it and delivers; values arriving meanwhile, from any thread, queue in ``buffer``, and
/// the holder delivers them before giving the token back. The downstream's completion is
/// delivered by the holder too, so it never overlaps a value.
///
/// A value that arrives while the token is held, with demand to spare and nothing waiting
/// before it, is taken at once (``paid``): its demand is used and its inner asked for the next,
/// as Combine does when such a value reaches its subscriber from inside a call into it; only the
/// call into the downstream waits for the holder.
@usableFromInline
internal struct FlattenState<Value, Failure: Error> {
    @usableFromInline typealias Link = FlattenLink

    /// What the storage does with the downstream after unlocking.
    @usableFromInline
    internal enum Drain {
        /// Nothing; the token, if it was held, is free again.
        case idle
        /// Deliver this value; then report the returned demand with ``delivered(_:)``.
        case deliver(Value)
        /// Deliver this completion, then report with ``delivered(_:)`` (asking for `.none`).
        case complete(Subscribers.Completion<Failure>)
        /// Let go of the downstream without telling it anything more.
        case release
    }

    /// Calls to make outside the lock, in order: cancels, the request, then the drain; and once
    /// the drain is over, ``unlimited``.
    @usableFromInline
    internal struct Effects {
        @usableFromInline var cancels: [any Subscription] = []
        @usableFromInline var request: FlattenRequest?
        @usableFromInline var drain: Drain = .idle
        /// Inners to ask for `.unlimited`, the downstream's demand having become unlimited: asked
        /// after the values that waited are delivered, as Combine does.
        @usableFromInline var unlimited: [any Subscription] = []

        @inlinable
        init() {}

        /// Effects that only drain.
        @inlinable
        init(drain: Drain) {
            self.drain = drain
        }
    }

    /// What to do with a value from an inner publisher.
    @usableFromInline
    internal enum InnerValue {
        /// The stream is over: ignore it.
        case drop
        /// Queued without demand for the token holder; the inner is asked for more once it is
        /// delivered.
        case buffered
        /// Queued for the token holder with its demand used: return `ask` to the inner now.
        case queued(ask: Subscribers.Demand)
        /// The caller now holds the token: deliver the value, report with ``delivered(_:)``,
        /// then return `ask` to the inner.
        case deliver(ask: Subscribers.Demand)
    }

    /// The most inner publishers subscribed at once: the upstream is asked for this many, then
    /// for one more each time an inner finishes.
    @usableFromInline let maxPublishers: Subscribers.Demand
    @usableFromInline var upstream = Link.awaitingSubscription
    /// The upstream's subscription while ``upstream`` is `.live`; an ``UnattachedSubscription``
    /// otherwise.
    @usableFromInline var upstreamSubscription: any Subscription = UnattachedSubscription()
    @usableFromInline var inners = FlattenInners()
    @usableFromInline var nextIndex = 0
    /// Downstream demand not yet used by a value.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Values that arrived while the token was held or without demand, in arrival order.
    @usableFromInline var buffer = RingBuffer<(index: Int, value: Value)>()
    /// How many of the oldest values in ``buffer`` have their demand used already (and their
    /// inner asked again): the holder delivers them whatever the demand. Always `0` while the
    /// token is free.
    @usableFromInline var paid = 0
    /// The drain token: someone is calling the downstream (at first: handing the subscription).
    @usableFromInline var delivering = true
    /// A completion decided while the token was held, for the holder to deliver.
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The stream is over (completed or cancelled): nothing more goes downstream, but for
    /// ``receivingCompletion``.
    @usableFromInline var terminated = false
    /// The thread delivering the stream's completion to the downstream, `0` when none is: a
    /// value an inner sends from inside that call still reaches the downstream, after the
    /// completion, while its demand lasts (as Combine's does); one sent meanwhile from another
    /// thread is dropped, as any value after the completion is.
    @usableFromInline var completingThread: UInt = 0

    /// The downstream is receiving the stream's completion (see ``completingThread``).
    @inlinable
    var receivingCompletion: Bool { completingThread != 0 }

    @inlinable
    init(maxPublishers: Subscribers.Demand) {
        self.maxPublishers = maxPublishers
    }

    /// The number of inner publishers subscribed or being subscribed.
    @inlinable
    var activeInners: Int { inners.count }

    /// The upstream has not completed: it may send publishers.
    @inlinable
    var upstreamOpen: Bool {
        switch upstream {
        case .awaitingSubscription, .live: return true
        case .finished, .failing, .terminal: return false
        }
    }

    // MARK: Upstream

    /// The upstream's subscription arrived: the number of publishers to ask it for (even
    /// `.none`, which Combine asks for too), or `nil` when it must be cancelled (a second one,
    /// or the stream is over).
    @inlinable
    mutating func subscribed(_ subscription: any Subscription) -> Subscribers.Demand? {
        guard case .awaitingSubscription = upstream, !terminated else { return nil }
        upstream = .live
        upstreamSubscription = subscription
        return maxPublishers
    }

    /// The upstream sent a publisher: the index to subscribe it under, or `nil` to drop it.
    @inlinable
    mutating func reserve() -> Int? {
        guard !terminated, upstreamOpen else { return nil }
        let index = nextIndex
        nextIndex += 1
        inners.add(index)
        return index
    }

    /// The upstream finished: the stream finishes once every inner has, and the buffer is empty.
    @inlinable
    mutating func upstreamFinished() -> Effects {
        switch upstream {
        case .failing:
            preconditionFailure(
                "FlatMap's upstream completed again while its inner publishers were being cancelled after its failure")
        case .finished, .terminal:
            return Effects()
        case .awaitingSubscription, .live:
            move(to: .finished)
            return finishIfDrained()
        }
    }

    /// As ``upstreamFinished()``, when the token is free or inners are still running: `false`
    /// when the stream goes on (inners or buffered values remain), `true` when it is over and
    /// the caller, now holding the token, delivers `.finished` to the downstream. `nil`, with
    /// nothing changed, when the caller must call ``upstreamFinished()``.
    @inlinable
    mutating func upstreamFinishedQuietly() -> Bool? {
        guard upstreamOpen else { return nil }
        guard inners.isEmpty, buffer.isEmpty else {
            move(to: .finished)
            return false
        }
        guard !delivering else { return nil }
        move(to: .terminal)
        terminated = true
        delivering = true
        completingThread = DownstreamTurn.currentThread
        return true
    }

    /// The upstream failed: the inners to cancel before the downstream is told, with
    /// ``innersCancelled()``. Until then the upstream is `.failing`, and completing again traps.
    @inlinable
    mutating func upstreamFailed(_ error: Failure) -> [any Subscription] {
        switch upstream {
        case .failing:
            preconditionFailure(
                "FlatMap's upstream completed again while its inner publishers were being cancelled after its failure")
        case .finished, .terminal:
            return []
        case .awaitingSubscription, .live:
            move(to: .failing)
            terminated = true
            completion = .failure(error)
            dropUnpaid()
            return takeInnerSubscriptions()
        }
    }

    /// The inners cancelled for the upstream's failure: deliver it, unless the token's holder
    /// will.
    @inlinable
    mutating func innersCancelled() -> Effects {
        if case .failing = upstream { upstream = .terminal }
        guard !delivering else { return Effects() }
        delivering = true
        return delivered(.none)
    }

    // MARK: Inners

    /// An inner publisher's subscription arrived: what to request from it, or `nil` when the
    /// inner is stale and must be cancelled.
    @inlinable
    mutating func innerSubscribed(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        let unlimited = demand == .unlimited
        guard !terminated, inners.attach(subscription, at: index, unlimited: unlimited) else { return nil }
        return unlimited ? .unlimited : .max(1)
    }

    /// A value from an inner publisher; one that has finished is heard too, as Combine hears it.
    @inlinable
    mutating func innerValue(_ index: Int, _ value: Value) -> InnerValue {
        guard !terminated else {
            guard completingThread == DownstreamTurn.currentThread, demand > 0, buffer.count == paid else {
                return .drop
            }
            demand -= 1
            buffer.append((index, value))
            paid += 1
            return .queued(ask: .none)
        }
        guard !delivering, buffer.isEmpty, demand > 0 else {
            buffer.append((index, value))
            guard delivering, buffer.count == paid + 1, demand > 0 else { return .buffered }
            demand -= 1
            paid += 1
            return .queued(ask: reask(index))
        }
        demand -= 1
        delivering = true
        return .deliver(ask: reask(index))
    }

    /// The upstream sent a publisher whose one value is at hand (a `Just`): it arrives as an
    /// inner's value would, without a subscription. Delivered now, or queued with its demand
    /// used, it has no slot, and ``immediateFinished()`` then stands for that inner's
    /// completion. Buffered without demand, it keeps a slot, as a subscribed `Just` would stay
    /// among the inners until asked for its value: so a bounded `flatMap` asks its upstream for
    /// no more publishers than it may hold, and the buffer never holds more values than inners.
    /// Its completion then comes with its value's delivery (``popBuffered()``).
    @inlinable
    mutating func immediate(_ value: Value) -> InnerValue {
        guard !terminated, upstreamOpen else { return .drop }
        let index = nextIndex
        nextIndex += 1
        guard !delivering, buffer.isEmpty, demand > 0 else {
            buffer.append((index, value))
            guard delivering, buffer.count == paid + 1, demand > 0 else {
                inners.add(index, immediate: true)
                return .buffered
            }
            demand -= 1
            paid += 1
            return .queued(ask: .none)
        }
        demand -= 1
        delivering = true
        return .deliver(ask: .none)
    }

    /// The token holder's call into the downstream returned `more`: `true` when that settles
    /// it — the token is free again and nothing else is due (what ``delivered(_:)`` would decide,
    /// without building its effects). `false`, with nothing changed, when there is more to do:
    /// the caller then calls ``delivered(_:)``.
    @inlinable
    mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard completion == nil, !terminated, buffer.isEmpty else { return false }
        if case .finished = upstream, inners.isEmpty { return false }
        demand += more
        delivering = false
        return true
    }

    /// As ``settle(_:)``, for an ``immediate(_:)`` value, together with that inner's
    /// completion (what ``immediateFinished()`` would decide): `.unsettled`, with nothing
    /// changed, when the caller must call ``delivered(_:)`` and then ``immediateFinished()``.
    @inlinable
    mutating func settleImmediate(_ more: Subscribers.Demand) -> FlattenSettlement {
        // `quietlyGone` is unsettled exactly when the upstream has finished; checked first, so the
        // settlement is built once and not copied.
        if case .finished = upstream { return .unsettled }
        guard settle(more) else { return .unsettled }
        return quietlyGone
    }

    /// An inner finished: settled, with its slot forgotten, when that needs at most a request
    /// for a replacement (what ``innerFinished(_:)`` would decide); `.unsettled`, with nothing
    /// changed, when the caller must call ``innerFinished(_:)``.
    @inlinable
    mutating func finishInnerQuietly(_ index: Int) -> FlattenSettlement {
        let gone = quietlyGone
        guard gone.isSettled else { return .unsettled }
        guard !terminated else { return .settled }
        inners.remove(index)
        return gone
    }

    /// The downstream asked for more, and that needs nothing but counting (what ``request(_:)``
    /// would decide): `true`. `false`, with nothing changed, when the caller must call
    /// ``request(_:)``.
    @inlinable
    mutating func requestQuietly(_ more: Subscribers.Demand) -> Bool {
        guard !terminated else { return true }
        guard delivering || buffer.isEmpty else { return false }
        if more == .unlimited, demand != .unlimited, !inners.isEmpty { return false }
        demand += more
        return true
    }

    /// What an inner's going needs: nothing, a request to the upstream for a replacement (a
    /// bounded `flatMap` whose upstream is subscribed), or — once the upstream has finished,
    /// when the last inner to go finishes the stream — the full ``innerGone()``.
    @inlinable
    var quietlyGone: FlattenSettlement {
        switch upstream {
        case .finished:
            return .unsettled
        case .live:
            if maxPublishers != .unlimited {
                return .settledAsking(upstreamSubscription, .max(1))
            }
            return .settled
        case .awaitingSubscription, .failing, .terminal:
            return .settled
        }
    }

    /// The inner behind ``immediate(_:)`` finished.
    @inlinable
    mutating func immediateFinished() -> Effects {
        guard !terminated else { return Effects() }
        return innerGone()
    }

    /// An inner publisher finished: a bounded `flatMap` asks the upstream for a replacement. As
    /// in Combine, every finish counts, even a second one from the same inner.
    @inlinable
    mutating func innerFinished(_ index: Int) -> Effects {
        guard !terminated else { return Effects() }
        inners.remove(index)
        return innerGone()
    }

    /// An inner is gone: in a bounded `flatMap`, ask the upstream for a replacement; finish if
    /// nothing is left.
    @inlinable
    mutating func innerGone() -> Effects {
        var effects = finishIfDrained()
        if maxPublishers != .unlimited, case .live = upstream {
            effects.request = FlattenRequest(upstreamSubscription, .max(1))
        }
        return effects
    }

    /// An inner publisher failed: cancel every other inner, let go of the upstream without
    /// cancelling it (as Combine does), and fail.
    @inlinable
    mutating func innerFailed(_ index: Int, _ error: Failure) -> Effects {
        guard !terminated else { return Effects() }
        inners.remove(index)
        move(to: .terminal)
        dropUnpaid()
        var effects = complete(.failure(error))
        effects.cancels = takeInnerSubscriptions()
        return effects
    }

    // MARK: Downstream

    /// The downstream asked for more. When that makes its demand unlimited, every inner is asked
    /// for `.unlimited` too.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Effects {
        var effects = Effects()
        guard !terminated else { return effects }
        if more == .unlimited, demand != .unlimited {
            effects.unlimited = inners.markAllUnlimited()
        }
        demand += more
        if !delivering, demand > 0, let value = popBuffered(request: &effects.request) {
            delivering = true
            effects.drain = .deliver(value)
        }
        return effects
    }

    /// The token holder's call into the downstream returned `more` (after a completion:
    /// `.none`): what it does next.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Effects {
        var effects = Effects()
        demand += more
        if paid > 0, let (_, value) = buffer.popFirst() {
            paid -= 1
            effects.drain = .deliver(value)
            return effects
        }
        if let completion {
            self.completion = nil
            completingThread = DownstreamTurn.currentThread
            effects.drain = .complete(completion)
            return effects
        }
        if terminated {
            completingThread = 0
            effects.drain = .release
            return effects
        }
        if demand > 0, let value = popBuffered(request: &effects.request) {
            effects.drain = .deliver(value)
            return effects
        }
        delivering = false
        let finish = finishIfDrained()
        effects.cancels = finish.cancels
        effects.drain = finish.drain
        return effects
    }

    /// The downstream cancelled: cancel every inner, then the upstream, and let go of it.
    @inlinable
    mutating func cancel() -> Effects {
        var effects = Effects()
        guard !terminated else { return effects }
        terminated = true
        effects.cancels = takeInnerSubscriptions()
        if case .live = upstream { effects.cancels.append(UnattachedSubscription.take(from: &upstreamSubscription)) }
        move(to: .terminal)
        buffer.removeAll()
        paid = 0
        if !delivering {
            delivering = true
            effects.drain = .release
        }
        return effects
    }

    // MARK: Helpers

    /// What to ask of an inner whose value is being delivered, so that it sends the next: one
    /// more, or `.unlimited` once the downstream's demand is; nothing for an inner already asked
    /// for `.unlimited`, or one that has finished.
    @inlinable
    mutating func reask(_ index: Int) -> Subscribers.Demand {
        guard let flags = inners.flags(of: index), !flags.contains(.unlimited) else { return .none }
        if demand == .unlimited {
            inners.markUnlimited(index)
            return .unlimited
        }
        return .max(1)
    }

    /// Takes the oldest buffered value, using one demand, and sets `request` to the request that
    /// replaces it (left alone when none does): to its inner for its next value, or, for a
    /// buffered `Just` (which finishes with it), to a bounded `flatMap`'s upstream for the next
    /// publisher.
    @inlinable
    mutating func popBuffered(request: inout FlattenRequest?) -> Value? {
        guard let (index, value) = buffer.popFirst() else { return nil }
        demand -= 1
        if inners.isImmediate(index) {
            inners.remove(index)
            if maxPublishers != .unlimited, case .live = upstream {
                request = FlattenRequest(upstreamSubscription, .max(1))
            }
            return value
        }
        guard let subscription = inners.subscription(index) else { return value }
        let ask = reask(index)
        if ask > 0 { request = FlattenRequest(subscription, ask) }
        return value
    }

    @inlinable
    mutating func finishIfDrained() -> Effects {
        guard case .finished = upstream, inners.isEmpty, buffer.isEmpty else { return Effects() }
        move(to: .terminal)
        return complete(.finished)
    }

    /// Ends the stream with `completion`: now if the token is free, else by its holder.
    @inlinable
    mutating func complete(_ completion: Subscribers.Completion<Failure>) -> Effects {
        var effects = Effects()
        terminated = true
        if delivering {
            self.completion = completion
        } else {
            delivering = true
            completingThread = DownstreamTurn.currentThread
            effects.drain = .complete(completion)
        }
        return effects
    }

    /// Forgets the buffered values still waiting for demand; those already paid for stay, for
    /// the holder to deliver before the completion (Combine delivers them as they arrive).
    @inlinable
    mutating func dropUnpaid() {
        guard buffer.count > paid else { return }
        var kept = RingBuffer<(index: Int, value: Value)>()
        for _ in 0..<paid {
            if let entry = buffer.popFirst() { kept.append(entry) }
        }
        buffer = kept
    }

    /// Moves the upstream on from where it stands, letting go of its subscription.
    @inlinable
    mutating func move(to link: Link) {
        upstream = link
        upstreamSubscription = UnattachedSubscription()
    }

    /// Every inner's subscription, in the order they were subscribed; the machine forgets them.
    @inlinable
    mutating func takeInnerSubscriptions() -> [any Subscription] {
        defer { inners.removeAll() }
        return inners.subscriptions
    }
}
