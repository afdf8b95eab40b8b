/// The state machine of `receive(on:)` and `delay`, as Combine runs them: the upstream's link and
/// the ``DeliveryQueue`` of events on their way to the scheduler, changed together under one lock
/// (``ScheduledStreamLine``). Every method calls nothing.
///
/// Events before the subscription are ignored, and so is a cancel before it. Once the upstream
/// completes, its completion is on the way to the scheduler: the subscriber's requests and
/// cancels no longer reach the upstream, while the demand returned from values still in flight
/// does, as in Combine. Once the completion has been delivered, the upstream is let go.
@usableFromInline
internal struct ScheduledStream<Downstream: Subscriber> {
    /// What a cancel hands back, for the caller to release and cancel outside the lock.
    @usableFromInline
    internal struct Cancelled {
        @usableFromInline let upstream: any Subscription
        @usableFromInline let released: (Downstream?, RingBuffer<DeliveryQueue<Downstream>.Event>)

        @inlinable
        init(upstream: any Subscription, released: (Downstream?, RingBuffer<DeliveryQueue<Downstream>.Event>)) {
            self.upstream = upstream
            self.released = released
        }
    }

    @usableFromInline var link = ScheduledLink.awaitingSubscription
    @usableFromInline var queue: DeliveryQueue<Downstream>

    @inlinable
    init(downstream: Downstream) {
        queue = DeliveryQueue(downstream: downstream)
    }

    /// Accepts the upstream's subscription; the caller hands the downstream its own next, and then
    /// calls ``handedOver()``.
    /// - Returns: `false` for a second one, or one after the end: the caller cancels it.
    @inlinable
    mutating func attach(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = link else { return false }
        link = .subscribed(subscription)
        queue.beginHandOver()
        return true
    }

    /// The downstream has its subscription: see ``DeliveryQueue/endHandOver()``.
    @inlinable
    mutating func handedOver() -> Bool {
        queue.endHandOver()
    }

    /// Queues a value for a later ``due()``.
    /// - Returns: Whether the caller schedules its delivery: `false` before the subscription,
    ///   once the upstream completed and once the stream ended.
    @inlinable
    mutating func receive(_ value: Downstream.Input) -> Bool {
        guard link.isSubscribed() else { return false }
        return queue.enqueue(.value(value))
    }

    /// Queues the upstream's completion for a later ``due()``.
    /// - Returns: Whether the caller schedules its delivery.
    @inlinable
    mutating func receive(completion: Subscribers.Completion<Downstream.Failure>) -> Bool {
        guard case .subscribed(let upstream) = link else { return false }
        link = .completing(upstream)
        return queue.enqueue(.completion(completion))
    }

    /// Where the subscriber's requests go: `nil` once the upstream completed or the stream ended.
    @inlinable
    var requestTarget: (any Subscription)? {
        guard case .subscribed(let upstream) = link else { return nil }
        return upstream
    }

    /// Where a delivered value's demand goes: `nil` after a cancel and once the completion has
    /// been delivered.
    @inlinable
    var deliveryTarget: (any Subscription)? {
        switch link {
        case .subscribed(let upstream), .completing(let upstream): return upstream
        case .awaitingSubscription, .terminal: return nil
        }
    }

    /// One queued event's action has run: see ``DeliveryQueue/due()``.
    @inlinable
    mutating func due() -> DeliveryQueue<Downstream>.Step {
        queue.due()
    }

    /// The deliverer's next event: see ``DeliveryQueue/next()``. When the turn ends after the
    /// completion went out, the upstream is let go.
    @inlinable
    mutating func next() -> DeliveryQueue<Downstream>.Step {
        switch queue.next() {
        case .idle:
            if queue.downstream == nil {
                link = .terminal
            }
            return .idle
        case let step:
            return step
        }
    }

    /// The subscriber cancelled.
    /// - Returns: The upstream to cancel and what the queue held; `nil` before the subscription
    ///   and once the upstream completed. A completed upstream is let go without being told (an
    ///   upstream that holds its subscriber for life, `catch`, `zip`, …, would otherwise keep
    ///   both alive), and its completion is still delivered.
    @inlinable
    mutating func cancel() -> Cancelled? {
        switch link {
        case .subscribed(let upstream):
            link = .terminal
            return Cancelled(upstream: upstream, released: queue.cancel())
        case .completing:
            link = .terminal
            return nil
        case .awaitingSubscription, .terminal:
            return nil
        }
    }
}
