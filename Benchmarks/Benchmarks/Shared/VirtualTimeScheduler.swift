// The virtual-time scheduler of the time-operator scenarios (`debounce`, `delay`), written once:
// TetherBench and OpenCombineBench run it as a `Scheduler` of their library (the `TETHER` /
// `OPENCOMBINE` condition picks the `import`), RawBench runs the same clock with no library as
// those rows' floor, and the profiling loop counts it.

#if TETHER
import Tether
#elseif OPENCOMBINE
import OpenCombine
#endif

/// A minimal virtual-time scheduler (a test scheduler), a `Scheduler` of the library the target
/// links, so that both libraries run the same one: actions run when `advance(by:)` moves the
/// clock past their due time, in due-time then scheduling order.
final class VirtualTimeScheduler: @unchecked Sendable {
    struct Time: Strideable, Hashable {
        var ticks: Int
        func distance(to other: Time) -> Stride { Stride(other.ticks - ticks) }
        func advanced(by n: Stride) -> Time { Time(ticks: ticks + n.ticks) }
    }

    /// A number of ticks; `seconds(1)` is 1,000,000 ticks.
    struct Stride: Comparable, SignedNumeric, Hashable, ExpressibleByFloatLiteral {
        var ticks: Int
        init(_ ticks: Int) { self.ticks = ticks }
        init(integerLiteral value: Int) { ticks = value }
        init(floatLiteral value: Double) { ticks = Int(value) }
        init?<T: BinaryInteger>(exactly source: T) {
            guard let ticks = Int(exactly: source) else { return nil }
            self.ticks = ticks
        }
        var magnitude: Int { abs(ticks) }
        static func seconds(_ s: Int) -> Stride { Stride(s * 1_000_000) }
        static func seconds(_ s: Double) -> Stride { Stride(Int(s * 1_000_000)) }
        static func milliseconds(_ ms: Int) -> Stride { Stride(ms * 1_000) }
        static func microseconds(_ us: Int) -> Stride { Stride(us) }
        static func nanoseconds(_ ns: Int) -> Stride { Stride(ns / 1_000) }
        static func < (l: Stride, r: Stride) -> Bool { l.ticks < r.ticks }
        static func + (l: Stride, r: Stride) -> Stride { Stride(l.ticks + r.ticks) }
        static func - (l: Stride, r: Stride) -> Stride { Stride(l.ticks - r.ticks) }
        static func * (l: Stride, r: Stride) -> Stride { Stride(l.ticks * r.ticks) }
        static func += (l: inout Stride, r: Stride) { l.ticks += r.ticks }
        static func -= (l: inout Stride, r: Stride) { l.ticks -= r.ticks }
        static func *= (l: inout Stride, r: Stride) { l.ticks *= r.ticks }
    }

    private struct Action {
        let due: Int
        let order: Int
        let run: () -> Void
    }

    private(set) var now = Time(ticks: 0)
    var minimumTolerance: Stride { 0 }
    private var actions: [Action] = []
    private var nextOrder = 0

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        enqueue(due: now.ticks, action)
    }

    func schedule(after date: Time, tolerance: Stride, options: Never?, _ action: @escaping () -> Void) {
        enqueue(due: date.ticks, action)
    }

    /// Starts a repeating action, first at `date` and then every `interval` ticks (at least one),
    /// until the returned timer is cancelled; the scheduler holds itself weakly in it, as a
    /// scheduler that outlives none of its timers would.
    func scheduleRepeating(after date: Time, interval: Stride, _ action: @escaping () -> Void) -> RepeatingTimer {
        let timer = RepeatingTimer()
        func fire(at due: Int) {
            enqueue(due: due) { [weak self] in
                guard !timer.cancelled else { return }
                action()
                if !timer.cancelled { self.map { _ in fire(at: due + max(interval.ticks, 1)) } }
            }
        }
        fire(at: date.ticks)
        return timer
    }

    /// A repeating action's handle: cancelled, it runs no more.
    final class RepeatingTimer {
        fileprivate(set) var cancelled = false

        func cancel() {
            cancelled = true
        }
    }

    /// Moves the clock by `stride`, running every action that falls due on the way.
    func advance(by stride: Stride) {
        let target = now.ticks + stride.ticks
        while let first = actions.first, first.due <= target {
            actions.removeFirst()
            now = Time(ticks: max(now.ticks, first.due))
            first.run()
        }
        now = Time(ticks: target)
    }

    fileprivate func enqueue(due: Int, _ run: @escaping () -> Void) {
        nextOrder += 1
        let action = Action(due: due, order: nextOrder, run: run)
        // Kept sorted by due time, then order; new actions are nearly always the latest.
        var index = actions.count
        while index > 0 && actions[index - 1].due > due { index -= 1 }
        actions.insert(action, at: index)
    }
}

#if TETHER || OPENCOMBINE
extension VirtualTimeScheduler: Scheduler {
    typealias SchedulerTimeType = Time
    typealias SchedulerOptions = Never

    func schedule(
        after date: Time, interval: Stride, tolerance: Stride, options: Never?, _ action: @escaping () -> Void
    ) -> Cancellable {
        // Combine's debounce (and so both libraries') schedules its timer as a repeating action
        // and cancels it after the first firing.
        let timer = scheduleRepeating(after: date, interval: interval, action)
        return AnyCancellable { timer.cancel() }
    }
}

extension VirtualTimeScheduler.Stride: SchedulerTimeIntervalConvertible {}
#endif
