/// The state machine behind ``Publishers/Buffer``: every method runs under the buffer's lock,
/// calls nothing, and returns what the caller must do once the lock is released.
///
/// Delivery is serialised by `delivering`: whoever sets it runs the drain loop (``next()``
/// after each value it delivers) until the machine goes idle; signals that arrive meanwhile
/// only change the state, and the loop picks them up. It starts set, because the first thing
/// delivered downstream is the subscription.
///
/// Like Combine's, a drain takes out of the buffer at once as many values as the downstream has
/// demand for (a batch, `taken`), hands them over one by one, and adds the demand they return
/// when the batch is done.
///
/// Combine's rules, kept here:
/// - with `.keepFull`, each value delivered downstream is owed to the upstream as one more
///   element of demand;
/// - a failure is delivered as soon as the downstream has no outstanding demand, dropping what
///   is still buffered; `.finished` waits until the buffer is empty *and* the downstream has
///   outstanding demand;
/// - values that arrive after `.finished` (but before it is delivered) are still buffered;
/// - a completion sent from inside the downstream's `receive(_:)`, on the thread handing a batch
///   over, overtakes the rest of the batch when Combine's buffer would deliver it at once (its
///   drain runs again, nested, with the batch already out of the buffer): a failure when no
///   demand is left beyond the batch, `.finished` when demand is left and nothing more is
///   buffered; the rest of the batch follows it, as in Combine. A completion from any other
///   thread waits for the batch: the values in it were taken for demand the downstream had
///   asked for, and a subscriber let go of at the completion would lose them. (Combine also
///   delivers a value that arrives during a batch, with demand left, ahead of the rest of the
///   batch; Tether keeps values in order. A cancel drops the rest of the batch, where Combine
///   delivers it.)
/// - a full buffer with `.customError` records the failure and cancels the upstream, but
///   delivers nothing until the downstream next requests; a value sent to the buffer from inside
///   the `customError` closure traps (Combine's buffer makes the error under its lock, and the
///   reentrant value crashes it);
/// - after the upstream completed, or was cancelled for an overflow, the values delivered on a
///   downstream request are still asked back of it (`.keepFull`), completion included, as Combine
///   does; a request made of a completed subscription is ignored. Once the completion and what
///   the overtaken batch held have gone down and that refill is asked, the subscription is let go
///   of: an upstream that keeps its subscriber would otherwise be kept alive with the buffer.
@usableFromInline
internal struct BufferState<Downstream: Subscriber> {
    @usableFromInline typealias Output = Downstream.Input
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    internal enum Upstream {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The upstream completed (or was cancelled for an overflow); its subscription, when there
        /// is one, is kept to ask for refills, as Combine does.
        case done(refill: (any Subscription)?)
    }

    /// What the drain loop does next.
    @usableFromInline
    internal enum Step {
        case deliver(Output, Downstream)
        /// Completes the downstream; everything the buffer held is released with it. The loop
        /// goes on: the rest of a batch the completion overtook follows it.
        case complete(Subscribers.Completion<Failure>, Released)
        /// Nothing to deliver: the loop stops. Carries what the upstream is owed (`.keepFull`).
        case idle(BufferRefill)
    }

    /// What became of a value from the upstream.
    @usableFromInline
    internal enum Arrival {
        /// Ignored, buffered, or dropped; nothing to do now.
        case kept
        /// The caller must run the drain loop from this step.
        case drain(Step)
        /// The buffer is full and the policy is `.customError`: the caller makes the error and
        /// hands it to ``overflowed(_:)``.
        case overflow(() -> Failure)
    }

    /// Everything released together at the end, outside the lock.
    @usableFromInline
    internal struct Released {
        @usableFromInline var downstream: Downstream
        @usableFromInline var upstream: Upstream
        @usableFromInline var storage: RingBuffer<Output>

        @inlinable
        init(downstream: Downstream, upstream: Upstream, storage: RingBuffer<Output>) {
            self.downstream = downstream
            self.upstream = upstream
            self.storage = storage
        }
    }

    @usableFromInline let size: Int
    @usableFromInline let keepFull: Bool
    @usableFromInline let whenFull: Publishers.BufferingStrategy<Failure>

    /// `nil` once the downstream is completed or has cancelled.
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream = Upstream.awaitingSubscription
    @usableFromInline var storage = RingBuffer<Output>()
    @usableFromInline var demand = Subscribers.Demand.none
    /// The completion received (or made for an overflow), not yet delivered.
    @usableFromInline var pending: Subscribers.Completion<Failure>?
    /// A drain loop is running (initially: the subscription is being handed downstream).
    @usableFromInline var delivering = true
    /// `.keepFull`: values delivered since the upstream was last asked for more.
    @usableFromInline var owed = 0
    /// The batch in hand: values taken out of `storage` for demand already counted, still to
    /// hand over.
    @usableFromInline var taken = RingBuffer<Output>()
    /// The thread handing the batch in hand over (``DownstreamTurn/currentThread``): only a
    /// completion sent on it, from inside the downstream, overtakes the rest of the batch.
    @usableFromInline var batchThread: UInt = 0
    /// The demand the values of the batch returned so far.
    @usableFromInline var returnedDuringBatch = Subscribers.Demand.none
    /// Where the rest of a batch goes once a completion overtook it.
    @usableFromInline var batchDownstream: Downstream?
    /// A completion that overtakes the rest of the batch, delivered at the loop's next step.
    @usableFromInline var overtaking: Subscribers.Completion<Failure>?
    /// The `customError` closure is running, outside the lock.
    @usableFromInline var makingError = false

    @inlinable
    init(
        downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<Failure>
    ) {
        self.downstream = downstream
        self.size = size
        self.keepFull = prefetch == .keepFull
        self.whenFull = whenFull
    }

    /// The upstream's subscription: the demand to ask it for, or `nil` when it must be
    /// cancelled (a second subscription, or the downstream already gone).
    @inlinable
    mutating func receive(subscription: any Subscription) -> Subscribers.Demand? {
        guard downstream != nil, case .awaitingSubscription = upstream else { return nil }
        upstream = .subscribed(subscription)
        return keepFull ? .max(size) : .unlimited
    }

    /// The subscription has been handed downstream: the loop's first step.
    @inlinable
    mutating func handedOver() -> Step {
        next()
    }

    @inlinable
    mutating func receive(_ value: Output) -> Arrival {
        precondition(
            !makingError, "Buffer received a value while its customError closure was making the error")
        guard let downstream, pending?.isFailure != true else { return .kept }
        if upstream.isAwaitingSubscription() { return .kept }
        if !delivering, demand > 0, storage.isEmpty, size > 0 {
            // The common case of a downstream with demand: straight through, no queueing. A
            // buffer of size zero is always full, as in Combine: its policy sees every value.
            delivering = true
            return .drain(take(value, for: downstream))
        }
        if storage.count >= size {
            switch whenFull {
            case .dropNewest:
                return .kept
            case .dropOldest:
                _ = storage.popFirst()
            case .customError(let makeError):
                makingError = true
                return .overflow(makeError)
            }
        }
        storage.append(value)
        guard !delivering, demand > 0 else { return .kept }
        delivering = true
        return .drain(next())
    }

    /// The error for a full buffer: recorded, and the upstream handed back to be cancelled.
    @inlinable
    mutating func overflowed(_ error: Failure) -> (any Subscription)? {
        makingError = false
        guard downstream != nil, pending?.isFailure != true else { return nil }
        pending = .failure(error)
        guard case .subscribed(let subscription) = upstream else { return nil }
        upstream = .done(refill: subscription)
        return subscription
    }

    /// The upstream's completion: the upstream to let go of, and the loop's first step if the
    /// caller must run it.
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Failure>
    ) -> (released: (any Subscription)?, step: Step?) {
        guard downstream != nil, pending == nil, case .subscribed(let subscription) = upstream else {
            return (nil, nil)
        }
        pending = completion
        upstream = .done(refill: subscription)
        if delivering, !taken.isEmpty, demand > 0 ? storage.isEmpty : completion.isFailure,
            batchThread == DownstreamTurn.currentThread
        {
            overtaking = completion
        }
        guard !delivering, demand > 0 || completion.isFailure else { return (subscription, nil) }
        delivering = true
        return (subscription, next())
    }

    /// The downstream asked for more: the loop's first step if the caller must run it.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Step? {
        guard downstream != nil else { return nil }
        demand += more
        guard !delivering, more > 0 else { return nil }
        delivering = true
        return next()
    }

    /// A value was delivered and the downstream returned `more`.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Step {
        returnedDuringBatch += more
        return next()
    }

    /// The loop's next step: a completion that overtook the batch, the rest of the batch, then
    /// Combine's drain: a new batch, the completion, or idle with what the upstream is owed.
    @inlinable
    mutating func next() -> Step {
        if let completion = overtaking, let downstream {
            overtaking = nil
            batchDownstream = downstream
            return .complete(completion, terminate(downstream))
        }
        if let value = taken.popFirst(), let target = downstream ?? batchDownstream {
            if keepFull { owed += 1 }
            return .deliver(value, target)
        }
        batchDownstream = nil
        demand += returnedDuringBatch
        returnedDuringBatch = .none
        if let downstream {
            if demand > 0 {
                if !storage.isEmpty {
                    takeBatch()
                    return next()
                }
                if let pending {
                    return .complete(pending, terminate(downstream))
                }
            } else if let pending, pending.isFailure {
                return .complete(pending, terminate(downstream))
            }
        }
        delivering = false
        var refill = BufferRefill.nothing
        if owed > 0, let subscription = upstream.refillable {
            refill = .request(.max(owed), from: subscription)
        }
        owed = 0
        // Ended and everything delivered: no refill is left to ask for, so the upstream's
        // subscription goes. Kept, it kept an upstream that holds its subscriber for good (an
        // operator's relay, as Combine's do) in a cycle with this buffer.
        if downstream == nil, case .done(refill: .some) = upstream {
            upstream = .done(refill: nil)
        }
        return .idle(refill)
    }

    /// Takes out of the buffer as many values as the downstream has demand for, to be handed
    /// over on this thread.
    @inlinable
    mutating func takeBatch() {
        batchThread = DownstreamTurn.currentThread
        while demand > 0, let value = storage.popFirst() {
            taken.append(value)
            demand -= 1
        }
    }

    /// A batch of the one value that arrived while the downstream had demand and nothing was
    /// buffered: straight through, no queueing.
    @inlinable
    mutating func take(_ value: Output, for downstream: Downstream) -> Step {
        demand -= 1
        if keepFull { owed += 1 }
        return .deliver(value, downstream)
    }

    /// The downstream cancelled: what to release, and the upstream to cancel, if still live.
    /// The rest of a batch in hand is dropped, and nothing more is asked of the upstream.
    @inlinable
    mutating func cancel() -> Released? {
        // As in Combine, a cancel before the upstream's subscription is ignored.
        guard let downstream, !upstream.isAwaitingSubscription() else { return nil }
        let released = terminate(downstream)
        upstream = .done(refill: nil)
        taken = RingBuffer()
        overtaking = nil
        owed = 0
        return released
    }

    /// Ends the stream for a completion: the upstream's subscription is kept for the refill of
    /// what is delivered, and the rest of an overtaken batch still goes down.
    @inlinable
    mutating func terminate(_ downstream: Downstream) -> Released {
        defer {
            self.downstream = nil
            upstream = .done(refill: upstream.refillable)
            storage = RingBuffer()
            pending = nil
        }
        return Released(downstream: downstream, upstream: upstream, storage: storage)
    }
}

extension BufferState.Upstream {
    /// Whether the subscription has not come yet. The link is moved out and back rather than read
    /// in place, which would copy it, the subscription through its value witness: this is the
    /// check of every value (Docs/FastWithoutTheSpecialiser.md).
    @inlinable
    internal mutating func isAwaitingSubscription() -> Bool {
        switch consume self {
        case .awaitingSubscription:
            self = .awaitingSubscription
            return true
        case let other:
            self = other
            return false
        }
    }

    /// The subscription to ask for refills: the live one, or the one kept after the end.
    @inlinable
    internal var refillable: (any Subscription)? {
        switch self {
        case .subscribed(let subscription), .done(refill: let subscription?): subscription
        case .awaitingSubscription, .done(refill: nil): nil
        }
    }
}
