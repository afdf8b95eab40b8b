/// How a ``FlattenState`` flattens: as `flatMap` does, or as `switchToLatest` does.
@usableFromInline
internal enum FlattenPolicy: Sendable, Equatable {
    /// `flatMap`: up to `maxPublishers` inner publishers at once (the upstream is asked for that
    /// many, then for one more each time an inner finishes). Each inner is asked for one value
    /// at a time, so at most one value per inner ever waits for downstream demand.
    case merge(maxPublishers: Subscribers.Demand)
    /// `switchToLatest`: the upstream is asked for everything; a new inner replaces (cancels)
    /// the previous one and is asked for the downstream demand still outstanding.
    case switchToLatest
}

/// The upstream of a ``FlattenState`` (the publisher of publishers) as the machine sees it.
///
/// This and ``FlattenSlot`` stand outside the generic machine so that they are not generic
/// themselves: the storage's `deinit` runs unspecialised, and every generic type in the state it
/// destroys costs a run-time type lookup there. The live upstream's subscription is kept beside
/// it (``FlattenState/upstreamSubscription``), so that the many checks of where the upstream
/// stands copy a plain value, not an existential.
@usableFromInline
internal enum FlattenLink {
    case awaitingSubscription
    /// Subscribed: the subscription is ``FlattenState/upstreamSubscription``.
    case live
    /// Finished normally; the inners may still be running.
    case finished
    /// Failed, cancelled, or the whole stream is over.
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

/// One inner publisher of a ``FlattenState``.
@usableFromInline
internal struct FlattenSlot {
    /// `nil` until the inner hands over its subscription.
    @usableFromInline var subscription: (any Subscription)?
    /// The inner was asked for `.unlimited`: it needs no further requests.
    @usableFromInline var unlimited = false
    /// A `Just` taken without a subscription (``FlattenState/immediate(_:)``) whose value waits
    /// in the buffer: it holds its place among the inners until that value is delivered.
    @usableFromInline var immediate = false

    @inlinable
    init() {}

    @inlinable
    init(immediate: Bool) { self.immediate = immediate }
}

/// The state machine behind ``Publishers/FlatMap`` and ``Publishers/SwitchToLatest``.
///
/// Every method runs under the storage's lock and calls nothing: it returns ``Effects`` that the
/// storage performs after unlocking. Values from several inner publishers reach the downstream
/// one at a time through a drain token (``delivering``): whoever finds it free and has demand
/// takes it and delivers; values arriving meanwhile, from any thread, queue in ``buffer``, and
/// the holder delivers them before giving the token back. The downstream's completion is
/// delivered by the holder too, so it never overlaps a value.
@usableFromInline
internal struct FlattenState<Value, Failure: Error> {
    @usableFromInline typealias Link = FlattenLink
    @usableFromInline typealias Slot = FlattenSlot

    /// What the storage does with the downstream after unlocking.
    @usableFromInline
    internal enum Drain {
        /// Nothing; the token, if it was held, is free again.
        case idle
        /// Deliver this value; then report the returned demand with ``delivered(_:)``.
        case deliver(Value)
        /// Deliver this completion, then let go of the downstream.
        case complete(Subscribers.Completion<Failure>)
        /// Let go of the downstream without telling it anything (it cancelled).
        case release
    }

    /// Calls to make outside the lock, in order: cancels, the request, then the drain.
    @usableFromInline
    internal struct Effects {
        @usableFromInline var cancels: [any Subscription] = []
        @usableFromInline var request: (subscription: any Subscription, demand: Subscribers.Demand)?
        @usableFromInline var drain: Drain = .idle

        @inlinable
        init() {}
    }

    /// What to do with a value from an inner publisher.
    @usableFromInline
    internal enum InnerValue {
        /// Stale (a replaced inner, or the stream is over): ignore it.
        case drop
        /// Queued for the token holder; the inner is asked for more once it is delivered.
        case buffered
        /// The caller now holds the token: deliver the value, report with ``delivered(_:)``,
        /// then return `ask` to the inner.
        case deliver(ask: Subscribers.Demand)
    }

    @usableFromInline let policy: FlattenPolicy
    @usableFromInline var upstream = Link.awaitingSubscription
    /// The upstream's subscription while ``upstream`` is `.live`; `nil` otherwise.
    @usableFromInline var upstreamSubscription: (any Subscription)?
    @usableFromInline var inners: [Int: Slot] = [:]
    @usableFromInline var nextIndex = 0
    /// Downstream demand not yet used by a delivered value.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Values that arrived while the token was held or without demand, in arrival order.
    @usableFromInline var buffer = RingBuffer<(index: Int, value: Value)>()
    /// The drain token: someone is calling the downstream (at first: handing the subscription).
    @usableFromInline var delivering = true
    /// A completion decided while the token was held, for the holder to deliver.
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The stream is over (completed or cancelled): nothing more goes downstream.
    @usableFromInline var terminated = false

    @inlinable
    init(policy: FlattenPolicy) {
        self.policy = policy
    }

    /// The number of inner publishers subscribed or being subscribed.
    @inlinable
    var activeInners: Int { inners.count }

    // MARK: Upstream

    /// The upstream's subscription arrived: `false` if it is a second one, to be cancelled.
    @inlinable
    mutating func subscribed(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = upstream else { return false }
        upstream = .live
        upstreamSubscription = subscription
        return true
    }

    /// The downstream has its subscription (the call returned): ask the upstream for its
    /// first publishers, and deliver whatever became due meanwhile.
    @inlinable
    mutating func started() -> Effects {
        var effects = delivered(.none)
        if case .live = upstream, let subscription = upstreamSubscription {
            switch policy {
            case .merge(let maxPublishers):
                if maxPublishers > 0 { effects.request = (subscription, maxPublishers) }
            case .switchToLatest:
                effects.request = (subscription, .unlimited)
            }
        }
        return effects
    }

    /// As ``started()``, when nothing became due while the downstream took its subscription
    /// (the usual case): the token is free again, and the caller asks the upstream for its first
    /// publishers. `.unsettled`, with nothing changed, when the caller must call ``started()``.
    @inlinable
    mutating func startQuietly() -> FlattenSettlement {
        guard case .live = upstream, let subscription = upstreamSubscription, settle(.none) else {
            return .unsettled
        }
        switch policy {
        case .merge(let maxPublishers):
            return maxPublishers > 0 ? .settledAsking(subscription, maxPublishers) : .settled
        case .switchToLatest:
            return .settledAsking(subscription, .unlimited)
        }
    }

    /// The upstream sent a publisher: the index to subscribe it under, or `nil` to drop it;
    /// `switchToLatest` also returns the previous inner to cancel.
    @inlinable
    mutating func reserve() -> (index: Int?, cancels: [any Subscription]) {
        guard !terminated, case .live = upstream else { return (nil, []) }
        let (index, cancels) = arrive()
        inners[index] = Slot()
        return (index, cancels)
    }

    /// A new inner publisher's index; `switchToLatest` forgets the previous inner and what it
    /// left waiting, and returns its subscription to cancel.
    @inlinable
    mutating func arrive() -> (index: Int, cancels: [any Subscription]) {
        var cancels: [any Subscription] = []
        if case .switchToLatest = policy, !inners.isEmpty || !buffer.isEmpty {
            cancels = inners.values.compactMap(\.subscription)
            inners.removeAll()
            buffer.removeAll()
        }
        defer { nextIndex += 1 }
        return (nextIndex, cancels)
    }

    /// The upstream finished: the stream finishes once every inner has, and the buffer is empty.
    @inlinable
    mutating func upstreamFinished() -> Effects {
        switch upstream {
        case .awaitingSubscription:
            preconditionFailure(
                "A publisher must send the subscription before its completion: the upstream completed first")
        case .finished, .terminal:
            return Effects()
        case .live:
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
        guard case .live = upstream else { return nil }
        guard inners.isEmpty, buffer.isEmpty else {
            move(to: .finished)
            return false
        }
        guard !delivering, !terminated else { return nil }
        move(to: .terminal)
        terminated = true
        delivering = true
        return true
    }

    /// The upstream failed: cancel every inner and fail.
    @inlinable
    mutating func upstreamFailed(_ error: Failure) -> Effects {
        switch upstream {
        case .awaitingSubscription:
            preconditionFailure(
                "A publisher must send the subscription before its completion: the upstream completed first")
        case .finished, .terminal:
            return Effects()
        case .live:
            move(to: .terminal)
            return fail(error)
        }
    }

    // MARK: Inners

    /// An inner publisher's subscription arrived: what to request from it (`.none`: nothing),
    /// or `nil` when the inner is stale and must be cancelled.
    @inlinable
    mutating func innerSubscribed(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard !terminated, var slot = inners[index], slot.subscription == nil else { return nil }
        slot.subscription = subscription
        let ask: Subscribers.Demand
        switch policy {
        case .merge:
            slot.unlimited = demand == .unlimited
            ask = slot.unlimited ? .unlimited : .max(1)
        case .switchToLatest:
            ask = demand
        }
        inners[index] = slot
        return ask
    }

    /// A value from an inner publisher.
    @inlinable
    mutating func innerValue(_ index: Int, _ value: Value) -> InnerValue {
        guard !terminated, let slot = inners[index] else { return .drop }
        guard !delivering, buffer.isEmpty, demand > 0 else {
            buffer.append((index, value))
            return .buffered
        }
        demand -= 1
        delivering = true
        return .deliver(ask: reask(index, slot))
    }

    /// The upstream sent a publisher whose one value is at hand (a `Just`): it arrives as an
    /// inner's value would, without a subscription. Delivered now, it has no slot, and
    /// ``immediateFinished()`` then stands for that inner's completion. Buffered (no demand, or
    /// the token is held), it keeps a slot, as a subscribed `Just` would stay among the inners
    /// until asked for its value: so a bounded `flatMap` asks its upstream for no more
    /// publishers than it may hold, and the buffer never holds more values than inners. Its
    /// completion then comes with its value's delivery (``popBuffered()``). `switchToLatest`
    /// also returns the previous inner to cancel, as ``reserve()`` does.
    @inlinable
    mutating func immediate(_ value: Value) -> (verdict: InnerValue, cancels: [any Subscription]) {
        guard !terminated, case .live = upstream else { return (.drop, []) }
        let (index, cancels) = arrive()
        guard !delivering, buffer.isEmpty, demand > 0 else {
            inners[index] = Slot(immediate: true)
            buffer.append((index, value))
            return (.buffered, cancels)
        }
        demand -= 1
        delivering = true
        return (.deliver(ask: .none), cancels)
    }

    /// The token holder's call into the downstream returned `more`: `true` when that settles
    /// it — the token is free again and nothing else is due (what ``delivered(_:)`` would decide,
    /// without building its effects). `false`, with nothing changed, when there is more to do:
    /// the caller then calls ``delivered(_:)``.
    @inlinable
    mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard completion == nil, !terminated, buffer.isEmpty else { return false }
        // (Any inner at all sends this to the full transition, which asks the current one: a
        // test that copies no subscription out.)
        if case .switchToLatest = policy, more > 0, !inners.isEmpty { return false }
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
        guard !terminated, inners.removeValue(forKey: index) != nil else { return .settled }
        return gone
    }

    /// The downstream asked for more, and that needs nothing but counting (what ``request(_:)``
    /// would decide): `true`. `false`, with nothing changed, when the caller must call
    /// ``request(_:)``.
    @inlinable
    mutating func requestQuietly(_ more: Subscribers.Demand) -> Bool {
        guard !terminated else { return true }
        if case .switchToLatest = policy, !inners.isEmpty { return false }
        guard delivering || buffer.isEmpty else { return false }
        demand += more
        return true
    }

    /// What an inner's going needs: nothing, a request to the upstream for a replacement (a
    /// bounded `flatMap`), or — once the upstream has finished, when the last inner to go
    /// finishes the stream — the full ``innerGone()``.
    @inlinable
    var quietlyGone: FlattenSettlement {
        switch upstream {
        case .finished:
            return .unsettled
        case .live:
            if case .merge(let maxPublishers) = policy, maxPublishers != .unlimited,
                let subscription = upstreamSubscription
            {
                return .settledAsking(subscription, .max(1))
            }
            return .settled
        case .awaitingSubscription, .terminal:
            return .settled
        }
    }

    /// The inner behind ``immediate(_:)`` finished.
    @inlinable
    mutating func immediateFinished() -> Effects {
        guard !terminated else { return Effects() }
        return innerGone()
    }

    /// An inner publisher finished: in `flatMap`, ask the upstream for a replacement.
    @inlinable
    mutating func innerFinished(_ index: Int) -> Effects {
        guard !terminated, inners.removeValue(forKey: index) != nil else { return Effects() }
        return innerGone()
    }

    /// An inner is gone: in a bounded `flatMap`, ask the upstream for a replacement; finish if
    /// nothing is left.
    @inlinable
    mutating func innerGone() -> Effects {
        var effects = Effects()
        if case .merge(let maxPublishers) = policy, maxPublishers != .unlimited,
            case .live = upstream, let subscription = upstreamSubscription
        {
            effects.request = (subscription, .max(1))
        }
        let finish = finishIfDrained()
        effects.cancels = finish.cancels
        effects.drain = finish.drain
        return effects
    }

    /// An inner publisher failed: cancel the upstream and every other inner, and fail.
    @inlinable
    mutating func innerFailed(_ index: Int, _ error: Failure) -> Effects {
        guard !terminated, inners.removeValue(forKey: index) != nil else { return Effects() }
        return fail(error)
    }

    // MARK: Downstream

    /// The downstream asked for more.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Effects {
        var effects = Effects()
        guard !terminated else { return effects }
        demand += more
        if case .switchToLatest = policy, let current = currentInner {
            effects.request = (current, more)
        }
        if !delivering, demand > 0, let (value, request) = popBuffered() {
            delivering = true
            if let request { effects.request = request }
            effects.drain = .deliver(value)
        }
        return effects
    }

    /// The token holder's call into the downstream returned `more`: what it does next.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Effects {
        var effects = Effects()
        if let completion {
            self.completion = nil
            effects.drain = .complete(completion)
            return effects
        }
        if terminated {
            delivering = false
            effects.drain = .release
            return effects
        }
        demand += more
        if case .switchToLatest = policy, more > 0, let current = currentInner {
            effects.request = (current, more)
        }
        if demand > 0, let (value, request) = popBuffered() {
            if let request { effects.request = request }
            effects.drain = .deliver(value)
            return effects
        }
        delivering = false
        let finish = finishIfDrained()
        effects.cancels = finish.cancels
        effects.drain = finish.drain
        return effects
    }

    /// The downstream cancelled: cancel the upstream and every inner, and let go of it.
    @inlinable
    mutating func cancel() -> Effects {
        var effects = Effects()
        guard !terminated else { return effects }
        terminated = true
        effects.cancels = takeSubscriptions()
        buffer.removeAll()
        if !delivering {
            delivering = true
            effects.drain = .release
        }
        return effects
    }

    // MARK: Helpers

    /// The subscription of the one inner `switchToLatest` keeps, once it has one.
    @inlinable
    var currentInner: (any Subscription)? {
        inners.count == 1 ? inners.first?.value.subscription : nil
    }

    /// What to ask of an inner whose value is being delivered, so that it sends the next.
    @inlinable
    mutating func reask(_ index: Int, _ slot: Slot) -> Subscribers.Demand {
        guard case .merge = policy, !slot.unlimited else { return .none }
        if demand == .unlimited {
            inners[index]?.unlimited = true
            return .unlimited
        }
        return .max(1)
    }

    /// Takes the oldest buffered value, using one demand, with the request that replaces it:
    /// to its inner for its next value, or, for a buffered `Just` (which finishes with it), to
    /// a bounded `flatMap`'s upstream for the next publisher.
    @inlinable
    mutating func popBuffered() -> (Value, (subscription: any Subscription, demand: Subscribers.Demand)?)? {
        guard let (index, value) = buffer.popFirst() else { return nil }
        demand -= 1
        if inners[index]?.immediate == true {
            inners[index] = nil
            if case .merge(let maxPublishers) = policy, maxPublishers != .unlimited,
                case .live = upstream, let subscription = upstreamSubscription
            {
                return (value, (subscription, .max(1)))
            }
            return (value, nil)
        }
        guard let slot = inners[index], let subscription = slot.subscription else { return (value, nil) }
        let ask = reask(index, slot)
        return (value, ask > 0 ? (subscription, ask) : nil)
    }

    @inlinable
    mutating func finishIfDrained() -> Effects {
        guard case .finished = upstream, inners.isEmpty, buffer.isEmpty else { return Effects() }
        move(to: .terminal)
        return complete(.finished)
    }

    @inlinable
    mutating func fail(_ error: Failure) -> Effects {
        let cancels = takeSubscriptions()
        buffer.removeAll()
        var effects = complete(.failure(error))
        effects.cancels = cancels
        return effects
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
            effects.drain = .complete(completion)
        }
        return effects
    }

    /// Moves the upstream on from `.live` (or from `.finished` to `.terminal`), letting go of its
    /// subscription.
    @inlinable
    mutating func move(to link: Link) {
        upstream = link
        upstreamSubscription = nil
    }

    /// Every subscription still held, upstream first; the machine forgets them all.
    @inlinable
    mutating func takeSubscriptions() -> [any Subscription] {
        var taken: [any Subscription] = []
        if case .live = upstream, let subscription = upstreamSubscription { taken.append(subscription) }
        move(to: .terminal)
        taken += inners.keys.sorted().compactMap { inners[$0]?.subscription }
        inners.removeAll()
        return taken
    }
}
