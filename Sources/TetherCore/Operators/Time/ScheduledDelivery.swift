/// The downstream end of a time operator that delivers on a scheduler, as Combine keeps it: the
/// subscriber, held for the subscription's whole life; the scheduler and options everything
/// goes out with; and the ``DeliveryLine`` it goes out through, whose own reference to the
/// subscriber says whether the stream is live.
///
/// Held by `receive(on:)`, `delay`, `debounce` and `timeout`; each keeps beside it only its own
/// upstream status and state machine. Its methods make the scheduler calls those operators share.
/// The action each takes is handed to the scheduler as it is, never wrapped, so scheduling
/// through it costs what scheduling directly does.
@usableFromInline
internal struct ScheduledDelivery<Downstream: Subscriber, Context: Scheduler>: ~Copyable {
    @usableFromInline let downstream: Downstream
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?
    /// Last: a field laid out after a `Mutex` over a generic value has been miscompiled in
    /// optimised builds (see ``Locked``).
    @usableFromInline let line: DeliveryLine<Downstream>

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
        line = DeliveryLine(downstream: downstream)
    }

    /// Starts a repeating timer with the options, as Combine starts `debounce`'s and
    /// `timeout`'s: first `interval` from now, then every `interval`, at the scheduler's minimum
    /// tolerance.
    /// - Returns: The timer's cancellable.
    @inlinable
    func startTimer(every interval: Context.SchedulerTimeType.Stride, _ action: @escaping () -> Void)
        -> any Cancellable
    {
        scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options, action)
    }

    /// Queues `event` and schedules `deliver`, which delivers it with ``DeliveryLine/due()``, at
    /// the scheduler's next opportunity; once the stream has ended, does nothing.
    /// - Parameter withOptions: `false` schedules without the options (`debounce`'s completion,
    ///   as Combine schedules it).
    @inlinable
    func schedule(
        _ event: DeliveryQueue<Downstream>.Event, withOptions: Bool = true, _ deliver: @escaping () -> Void
    ) {
        guard line.enqueue(event) else { return }
        scheduler.schedule(options: withOptions ? options : nil, deliver)
    }

    /// Queues `event` and schedules `deliver`, which delivers it with ``DeliveryLine/due()``,
    /// `interval` from now with the options; once the stream has ended, does nothing.
    @inlinable
    func schedule(
        _ event: DeliveryQueue<Downstream>.Event, after interval: Context.SchedulerTimeType.Stride,
        tolerance: Context.SchedulerTimeType.Stride, _ deliver: @escaping () -> Void
    ) {
        guard line.enqueue(event) else { return }
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, deliver)
    }

    /// Delivers what is due, for `receive(on:)` and `delay`, whose upstream is a
    /// ``ScheduledUpstream``: each value's returned demand goes upstream as soon as it is
    /// returned, as Combine requests it, and once the completion is out the upstream is let go
    /// too (an upstream that holds its subscriber for life would otherwise keep both alive).
    @inlinable
    func deliverDue(requestingFrom upstream: borrowing ScheduledUpstream) {
        line.due { demand in upstream.deliveryTarget?.request(demand) }
        if line.downstream == nil { upstream.finish() }
    }
}
