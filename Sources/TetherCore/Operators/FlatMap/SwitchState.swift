/// The state machine behind ``Publishers/SwitchToLatest``: every method runs under the
/// subscription's lock, calls nothing, and returns what the caller must do once it is released.
///
/// It keeps Combine's accounting, as OpenCombine's suite records it. The downstream's demand is
/// counted here: each inner value uses one (a value with none outstanding traps), the demand the
/// downstream returns for it is added back and also returned to the inner, and a new inner is
/// asked for whatever is outstanding when its subscription arrives. Inners are numbered, so the
/// signals of a replaced one are told apart and ignored. The downstream's completion is not
/// guarded by a terminal state, as in Combine: a second completion from the outer publisher
/// goes downstream too, and an inner's values still do after the outer failed (the outer's
/// failure cancels the inner, which is expected to stop).
@usableFromInline
internal struct SwitchState {
    /// The outer publisher's subscription, until it completes or is cancelled.
    @usableFromInline var outer = Target.none
    /// The current inner's subscription, once it has arrived and until the inner completes.
    @usableFromInline var inner = Target.none
    /// The number of the current inner; signals from any other are ignored. Numbers wrap: two
    /// inners alive at once are never that far apart.
    @usableFromInline var current = 0
    @usableFromInline var next = 1
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var cancelled = false
    /// The outer publisher has completed.
    @usableFromInline var outerFinished = false
    /// The current inner has been subscribed and its subscription has not arrived yet.
    @usableFromInline var awaitingInner = false
    /// The current inner is a value at hand (see ``switchToValueAtHand()``), being delivered: it
    /// stands for an inner whose subscription has arrived and which has not completed.
    @usableFromInline var valueAtHand = false
    /// An inner's completion has gone downstream (the outer's is not recorded, as in Combine).
    @usableFromInline var sentCompletion = false

    @inlinable
    init() {}

    /// What the outer publisher's completion leads to.
    @usableFromInline
    internal enum OuterEnding {
        case nothing
        case finish
        /// Cancel the inner, if any, and fail the downstream.
        case fail(Target)
    }

    /// What a new inner publisher leads to. Its own enum rather than a tuple holding an optional
    /// subscription: returned from the lock on every value, that tuple was copied and destroyed
    /// through `Optional`'s value witnesses (a run-time type lookup each) even when it held no
    /// subscription, as it does not for a `Just` (Docs/FastWithoutTheSpecialiser.md).
    @usableFromInline
    internal enum NextInner {
        /// The stream is cancelled or the outer publisher has completed: the inner is ignored.
        case ignore
        /// Inner `index` is current; `deliver` as for ``SwitchState/switchToValueAtHand()``.
        case switched(index: Int, deliver: Bool)
        /// The same, and `previous`, the subscription of the inner it replaces, is to be cancelled.
        case replacing(index: Int, deliver: Bool, previous: any Subscription)
    }

    /// A subscription, or none: how the state keeps the outer's and the inner's, and hands one
    /// out to be called once the lock is released. Its own enum rather than an optional, for the
    /// reason ``NextInner`` is: an optional subscription is copied, destroyed, and assigned over
    /// through `Optional`'s value witnesses, which look the payload's type up, empty or not.
    @usableFromInline
    internal enum Target {
        case none
        case on(any Subscription)

        /// Whether there is no subscription. Moved out and back rather than read in place:
        /// reading the case of a stored `Target` copies it, and destroys the copy, through its
        /// value witnesses (as ``UpstreamStatus/isSubscribed()`` explains).
        @inlinable
        mutating func isNone() -> Bool {
            switch consume self {
            case .on(let subscription):
                self = .on(subscription)
                return false
            case .none:
                self = .none
                return true
            }
        }

        /// Keeps `subscription` if there is none yet: `false`, with nothing changed, otherwise.
        /// The empty target is moved out rather than assigned over, which destroyed it through
        /// its value witnesses.
        @inlinable
        mutating func fill(_ subscription: consuming any Subscription) -> Bool {
            switch consume self {
            case .on(let kept):
                self = .on(kept)
                return false
            case .none:
                self = .on(subscription)
                return true
            }
        }

        /// Lets go of the subscription, if there is one, without going through the value
        /// witnesses an assignment of `.none` destroys the old target with.
        @inlinable
        mutating func clear() {
            switch consume self {
            case .on(let subscription):
                self = .none
                _ = consume subscription
            case .none:
                self = .none
            }
        }

        /// A copy, for a call made once the lock is released; the subscription alone is copied,
        /// not the target through its value witnesses.
        @inlinable
        mutating func copy() -> Target {
            switch consume self {
            case .on(let subscription):
                self = .on(subscription)
                return .on(subscription)
            case .none:
                self = .none
                return .none
            }
        }

        /// Moves the subscription out, leaving none.
        @inlinable
        mutating func take() -> Target {
            var taken = Target.none
            swap(&taken, &self)
            return taken
        }

        /// Asks the subscription for `demand`, if there is one.
        @inlinable
        consuming func request(_ demand: Subscribers.Demand) {
            if case .on(let subscription) = consume self {
                subscription.request(demand)
            }
        }

        /// Cancels the subscription, if there is one.
        @inlinable
        consuming func cancel() {
            if case .on(let subscription) = consume self {
                subscription.cancel()
            }
        }
    }

    /// What an inner's completion leads to.
    @usableFromInline
    internal enum InnerEnding {
        case nothing
        case finish
        /// Cancel the outer publisher, if still subscribed, and fail the downstream.
        case fail(Target)

        /// Whether the ending finishes the stream: the question an inner at hand's completion
        /// asks. Consumed here: an ending read with `if case` was destroyed afterwards through its
        /// value witnesses, on every value at hand.
        @inlinable
        consuming func finishes() -> Bool {
            switch consume self {
            case .finish: true
            case .nothing, .fail: false
            }
        }
    }

    /// The outer subscription arrived: `false` when it must be cancelled instead.
    @inlinable
    mutating func attachOuter(_ subscription: any Subscription) -> Bool {
        guard !cancelled else { return false }
        return outer.fill(subscription)
    }

    /// A new inner publisher: its number, and the previous inner to cancel, if it had a
    /// subscription; ``NextInner/ignore`` when the stream is cancelled or the outer publisher has
    /// completed.
    @inlinable
    mutating func switchToNext() -> NextInner {
        switchTo(deliveringAtHand: false)
    }

    /// A new inner publisher whose one value is at hand (a `Just`), so that subscribing to it
    /// would only hand that value over: with demand outstanding, the inner is switched to and
    /// its value counted as delivered, as its subscription and value would be, and the caller
    /// delivers it and then completes the inner (``innerCompleted(_:failed:)``). Without demand
    /// (`deliver` is `false`) the caller subscribes to the inner as usual.
    @inlinable
    mutating func switchToValueAtHand() -> NextInner {
        switchTo(deliveringAtHand: demand > 0)
    }

    /// Makes the next inner current, either awaiting its subscription or, `deliveringAtHand`,
    /// standing for a subscribed inner whose value uses one demand now; hands out the previous
    /// inner's subscription, moved out of the state.
    @inlinable
    mutating func switchTo(deliveringAtHand deliver: Bool) -> NextInner {
        guard !cancelled, !outerFinished else { return .ignore }
        current = next
        next &+= 1
        awaitingInner = !deliver
        valueAtHand = deliver
        if deliver { demand -= 1 }
        switch inner.take() {
        case .on(let previous):
            return .replacing(index: current, deliver: deliver, previous: previous)
        case .none:
            return .switched(index: current, deliver: deliver)
        }
    }

    @inlinable
    mutating func outerCompleted(failed: Bool) -> OuterEnding {
        outer.clear()
        outerFinished = true
        guard !cancelled else { return .nothing }
        if failed {
            sentCompletion = true
            return .fail(inner.take())
        }
        guard !awaitingInner, !valueAtHand, inner.isNone() else { return .nothing }
        sentCompletion = true
        return .finish
    }

    /// The downstream asked for more: the inner to pass it on to, if it has a subscription.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Target {
        demand += more
        // None for a value at hand, which has no subscription.
        return inner.copy()
    }

    /// The subscriptions to cancel.
    @inlinable
    mutating func cancel() -> (inner: Target, outer: Target) {
        cancelled = true
        return (inner.take(), outer.take())
    }

    /// Inner `index`'s subscription arrived: the demand to ask it for, or `nil` when it must be
    /// cancelled instead.
    @inlinable
    mutating func attachInner(_ subscription: any Subscription, _ index: Int) -> Subscribers.Demand? {
        guard index == current, !cancelled, inner.fill(subscription) else { return nil }
        awaitingInner = false
        return demand
    }

    /// Inner `index` sent a value: `false` when it is to be ignored. Traps without demand.
    @inlinable
    mutating func innerValue(_ index: Int) -> Bool {
        guard index == current, !cancelled else { return false }
        precondition(
            demand > 0, "A publisher must not send a value without demand: SwitchToLatest had none outstanding")
        demand -= 1
        return true
    }

    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) {
        demand += more
    }

    @inlinable
    mutating func innerCompleted(_ index: Int, failed: Bool) -> InnerEnding {
        guard index == current, !cancelled else { return .nothing }
        precondition(
            !awaitingInner,
            "A publisher must send the subscription before its completion: SwitchToLatest's inner did not")
        // A value at hand had no subscription to let go of (this runs for every such value).
        if valueAtHand {
            valueAtHand = false
        } else {
            inner.clear()
        }
        guard !sentCompletion else { return .nothing }
        if failed {
            cancelled = true
            sentCompletion = true
            return .fail(outer.take())
        }
        guard outerFinished else { return .nothing }
        sentCompletion = true
        return .finish
    }
}
