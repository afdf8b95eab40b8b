/// A ``ScheduledStream`` under its one lock, with the drain loop that delivers it: what
/// `receive(on:)` and `delay` keep beside their ``ScheduledDelivery``.
///
/// A value costs three critical sections: one to queue it, one when its scheduled action
/// starts delivering, one when the delivery returns to look for more.
@usableFromInline
internal struct ScheduledStreamLine<Downstream: Subscriber>: ~Copyable, @unchecked Sendable {
    @usableFromInline let stream: Locked<ScheduledStream<Downstream>>

    @inlinable
    init(downstream: Downstream) {
        stream = Locked(ScheduledStream(downstream: downstream))
    }

    /// Accepts the upstream's subscription; `false` when the caller must cancel it.
    @inlinable
    func attach(_ subscription: any Subscription) -> Bool {
        stream.withLock { $0.attach(subscription) }
    }

    /// Queues a value; `true` when the caller schedules a ``due()`` for it.
    @inlinable
    func receive(_ value: Downstream.Input) -> Bool {
        stream.withLock { $0.receive(value) }
    }

    /// Queues the upstream's completion; `true` when the caller schedules a ``due()`` for it.
    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) -> Bool {
        stream.withLock { $0.receive(completion: completion) }
    }

    /// Where the subscriber's requests go, while the upstream is live.
    @inlinable
    var requestTarget: (any Subscription)? {
        stream.withLock { $0.requestTarget }
    }

    /// The downstream has its subscription; `true` when the caller schedules one more ``due()``
    /// for what came due on another thread meanwhile (see ``DeliveryQueue/endHandOver()``).
    @inlinable
    func handedOver() -> Bool {
        stream.withLock { $0.handedOver() }
    }

    /// Runs from a scheduled action: delivers this event, and any others already due, unless
    /// another action is delivering. The demand each value returns is requested from the
    /// upstream as soon as it is returned, as Combine requests it.
    @inlinable
    func due() {
        DeliveryQueue.drain(from: stream.withLock { $0.due() }, next: { stream.withLock { $0.next() } }) { demand in
            stream.withLock { $0.deliveryTarget }?.request(demand)
        }
    }

    /// The subscriber cancelled: releases the subscriber and what was queued, then cancels the
    /// upstream, outside the lock.
    @inlinable
    func cancel() {
        let upstream: any Subscription
        do {
            guard let cancelled = stream.withLock({ $0.cancel() }) else { return }
            upstream = cancelled.upstream
        }
        upstream.cancel()
    }
}
