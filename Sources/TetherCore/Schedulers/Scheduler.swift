/// A protocol that defines when and how to execute a closure.
///
/// A scheduler can run code as soon as possible or after a future date. Each scheduler keeps time
/// in its own ``SchedulerTimeType``; since the stride of that type is
/// ``SchedulerTimeIntervalConvertible``, times can always be written as `.milliseconds(500)`.
/// Options (``SchedulerOptions``) control how the actions run, for example on which queue.
public protocol Scheduler<SchedulerTimeType> {
    /// Describes an instant in time for this scheduler.
    associatedtype SchedulerTimeType: Strideable
    where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible

    /// A type that defines options accepted by the scheduler.
    associatedtype SchedulerOptions

    /// This scheduler's definition of the current moment in time.
    var now: SchedulerTimeType { get }

    /// The minimum tolerance allowed by the scheduler.
    var minimumTolerance: SchedulerTimeType.Stride { get }

    /// Performs the action at the next possible opportunity.
    /// - Parameters:
    ///   - options: Options that customize the action's execution.
    ///   - action: The action to perform.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

    /// Performs the action at some time after the specified date.
    /// - Parameters:
    ///   - date: The earliest time to perform the action.
    ///   - tolerance: How late the action may run.
    ///   - options: Options that customize the action's execution.
    ///   - action: The action to perform.
    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void)

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// optionally taking into account tolerance if possible.
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - options: Options that customize the action's execution.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that stops the repetitions.
    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable
}

extension Scheduler {
    /// Performs the action at some time after the specified date, using the scheduler's minimum
    /// tolerance.
    /// - Parameters:
    ///   - date: The earliest time to perform the action.
    ///   - action: The action to perform.
    @inlinable
    public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
        schedule(after: date, tolerance: minimumTolerance, action)
    }

    /// Performs the action at the next possible opportunity, without options.
    /// - Parameter action: The action to perform.
    @inlinable
    public func schedule(_ action: @escaping () -> Void) {
        schedule(options: nil, action)
    }

    /// Performs the action at some time after the specified date, with the given tolerance.
    /// - Parameters:
    ///   - date: The earliest time to perform the action.
    ///   - tolerance: How late the action may run.
    ///   - action: The action to perform.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) {
        schedule(after: date, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// taking into account tolerance if possible.
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - tolerance: How late each run may be.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that stops the repetitions.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
    }

    /// Performs the action at some time after the specified date, at the specified frequency,
    /// using the scheduler's minimum tolerance.
    /// - Parameters:
    ///   - date: The time of the first run.
    ///   - interval: The time between runs.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that stops the repetitions.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, _ action: @escaping () -> Void
    ) -> any Cancellable {
        schedule(after: date, interval: interval, tolerance: minimumTolerance, action)
    }
}
