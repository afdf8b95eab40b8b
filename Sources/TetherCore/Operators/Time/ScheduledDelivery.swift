/// The downstream end of a time operator that delivers on a scheduler, as Combine keeps it: the
/// subscriber, held for the subscription's whole life, and the scheduler and options everything
/// goes out with.
///
/// Held by `receive(on:)`, `delay`, `debounce` and `timeout`, each with the line that orders
/// what goes out beside it (a ``ScheduledStreamLine`` or a ``DeliveryLine``). Its methods make
/// the scheduler calls those operators share. The action each takes is handed to the scheduler
/// as it is, never wrapped, so scheduling through it costs what scheduling directly does.
@usableFromInline
internal struct ScheduledDelivery<Downstream: Subscriber, Context: Scheduler> {
    @usableFromInline let downstream: Downstream
    @usableFromInline let scheduler: Context
    @usableFromInline let options: Context.SchedulerOptions?

    @inlinable
    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.options = options
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

    /// Schedules `deliver` at the scheduler's next opportunity.
    /// - Parameter withOptions: `false` schedules without the options (`debounce`'s completion,
    ///   as Combine schedules it).
    @inlinable
    func schedule(withOptions: Bool = true, _ deliver: @escaping () -> Void) {
        scheduler.schedule(options: withOptions ? options : nil, deliver)
    }

    /// Schedules `deliver` `interval` from now, with the options.
    @inlinable
    func schedule(
        after interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride,
        _ deliver: @escaping () -> Void
    ) {
        scheduler.schedule(after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, deliver)
    }
}
