import Foundation
import Synchronization
import Tether

/// A scheduler with virtual time, for deterministic tests of time-based code.
///
/// Nothing runs until the test moves the clock with ``advance(by:)``, ``advance(to:)`` or
/// ``run()``; then the actions that fall due run in time order, and actions due at the same
/// instant in the order they were scheduled. Repeating actions run at each interval until
/// cancelled. It takes the time and options types of the scheduler it replaces, so code written
/// against `DispatchQueue` can be handed `DispatchQueue.test`:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let recording = scheduler.record(subject.debounce(for: .seconds(1), scheduler: scheduler))
/// subject.send(1)
/// scheduler.advance(by: .seconds(1))
/// XCTAssertEqual(recording.values, [1])
/// ```
public final class TestScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    private struct Work {
        let id: Int
        var due: SchedulerTimeType
        var order: Int
        let interval: SchedulerTimeType.Stride?
        let action: () -> Void
    }

    private struct State {
        var now: SchedulerTimeType
        var counter = 0
        var queue: [Work] = []
    }

    private let state: Mutex<Unsafe<State>>

    /// The length of one tick of a marble diagram.
    public let tick: SchedulerTimeType.Stride

    /// The instant the scheduler was created at: tick 0 of marble diagrams.
    public let start: SchedulerTimeType

    /// Creates a test scheduler.
    /// - Parameters:
    ///   - now: The virtual time to start at.
    ///   - tick: The length of one tick (one character) of a marble diagram.
    public init(now: SchedulerTimeType, tick: SchedulerTimeType.Stride = .seconds(1)) {
        state = Mutex(Unsafe(State(now: now)))
        start = now
        self.tick = tick
    }

    /// The scheduler's current virtual time.
    public var now: SchedulerTimeType { state.withLock { $0.value.now } }

    /// The minimum tolerance: zero, since virtual time is exact.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// How many actions are waiting to run, repeating ones included.
    public var scheduledCount: Int { state.withLock { $0.value.queue.count } }

    /// Schedules the action for the current virtual time; it runs at the next advance.
    /// - Parameters:
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        _ = enqueue(at: nil, interval: nil, action)
    }

    /// Schedules the action for `date` (or now, if `date` has passed).
    /// - Parameters:
    ///   - date: When to run the action.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    public func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        _ = enqueue(at: date, interval: nil, action)
    }

    /// Schedules the action for `date` and then every `interval`.
    /// - Parameters:
    ///   - date: When to run the action first.
    ///   - interval: The time between runs.
    ///   - tolerance: Ignored.
    ///   - options: Ignored.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that removes the action from the scheduler.
    public func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let id = enqueue(at: date, interval: interval, action)
        return AnyCancellable { [weak self] in self?.remove(id) }
    }

    /// Schedules a one-shot action that can be cancelled: for test publishers.
    /// - Parameters:
    ///   - date: When to run the action.
    ///   - action: The action to perform.
    /// - Returns: A cancellable that removes the action if it has not run.
    public func scheduleCancellable(after date: SchedulerTimeType, _ action: @escaping () -> Void) -> AnyCancellable {
        let id = enqueue(at: date, interval: nil, action)
        return AnyCancellable { [weak self] in self?.remove(id) }
    }

    private func enqueue(
        at date: SchedulerTimeType?, interval: SchedulerTimeType.Stride?, _ action: @escaping () -> Void
    ) -> Int {
        state.withLock { box in
            box.value.counter += 1
            let id = box.value.counter
            let due = Swift.max(date ?? box.value.now, box.value.now)
            box.value.queue.append(Work(id: id, due: due, order: id, interval: interval, action: action))
            return id
        }
    }

    private func remove(_ id: Int) {
        let removed = state.withLock { box -> [Work] in
            let gone = box.value.queue.filter { $0.id == id }
            box.value.queue.removeAll { $0.id == id }
            return gone
        }
        _ = removed
    }

    /// Runs, in order, every action due up to `now + stride`, then sets the clock there.
    /// - Parameter stride: How far to move the clock; zero runs what is due now.
    public func advance(by stride: SchedulerTimeType.Stride = .zero) {
        advance(to: now.advanced(by: stride))
    }

    /// Runs, in order, every action due up to `instant`, then sets the clock there. Actions
    /// scheduled meanwhile run too if they fall due by `instant`.
    /// - Parameter instant: The time to move the clock to; earlier than now runs what is due
    ///   now.
    public func advance(to instant: SchedulerTimeType) {
        while let action = takeNext(upTo: instant) {
            action.value()
        }
        state.withLock { box in box.value.now = Swift.max(box.value.now, instant) }
    }

    /// Runs every one-shot action, moving the clock to each as it falls due, until none is
    /// left; repeating actions run whenever they fall due on the way.
    public func run() {
        while let last = state.withLock({ box in box.value.queue.filter { $0.interval == nil }.map(\.due).max() }) {
            advance(to: last)
        }
    }

    /// The next action due by `instant`, with the clock moved to it and a repeating action
    /// put back for its next run.
    private func takeNext(upTo instant: SchedulerTimeType) -> Unsafe<() -> Void>? {
        state.withLock { box -> Unsafe<() -> Void>? in
            var earliest: Int?
            for (index, work) in box.value.queue.enumerated() where work.due <= instant {
                if let best = earliest {
                    let current = box.value.queue[best]
                    if (work.due, work.order) < (current.due, current.order) { earliest = index }
                } else {
                    earliest = index
                }
            }
            guard let index = earliest else { return nil }
            let work = box.value.queue[index]
            box.value.now = Swift.max(box.value.now, work.due)
            if let interval = work.interval {
                box.value.counter += 1
                box.value.queue[index].due = work.due.advanced(
                    by: Swift.max(interval, .zero) == .zero ? tickFloor : interval)
                box.value.queue[index].order = box.value.counter
            } else {
                box.value.queue.remove(at: index)
            }
            return Unsafe(work.action)
        }
    }

    /// A repeating action with a zero interval would run forever at one instant.
    private var tickFloor: SchedulerTimeType.Stride { tick }

    /// The marble-diagram tick `instant` falls in.
    /// - Parameter instant: A virtual time at or after ``start``.
    /// - Returns: The index of the tick, counting from ``start``.
    public func tickIndex(of instant: SchedulerTimeType) -> Int {
        var index = 0
        var mark = start.advanced(by: tick)
        while mark <= instant {
            index += 1
            mark = mark.advanced(by: tick)
        }
        return index
    }

    /// The virtual time of a marble-diagram tick.
    /// - Parameter index: The tick, counting from ``start``.
    /// - Returns: Its instant.
    public func instant(ofTick index: Int) -> SchedulerTimeType {
        var instant = start
        for _ in 0..<index { instant = instant.advanced(by: tick) }
        return instant
    }
}

extension DispatchQueue {
    /// A test scheduler that stands in for a `DispatchQueue`, with one-second marble ticks.
    public static var test: TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions> {
        // Uptime 0 would mean "now" to Dispatch.
        TestScheduler(now: .init(.init(uptimeNanoseconds: 1)))
    }
}

extension RunLoop {
    /// A test scheduler that stands in for a `RunLoop`, with one-second marble ticks.
    public static var test: TestScheduler<RunLoop.SchedulerTimeType, RunLoop.SchedulerOptions> {
        TestScheduler(now: .init(Date(timeIntervalSince1970: 0)))
    }
}

extension OperationQueue {
    /// A test scheduler that stands in for an `OperationQueue`, with one-second marble ticks.
    public static var test: TestScheduler<OperationQueue.SchedulerTimeType, OperationQueue.SchedulerOptions> {
        TestScheduler(now: .init(Date(timeIntervalSince1970: 0)))
    }
}
