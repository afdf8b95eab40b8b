// Scheduler, time-operator and async/await scenarios, written once against Combine's API
// (TetherBench and OpenCombineBench hold symlinks to this file, as to Scenarios.swift).

#if TETHER
import Tether
import TetherExtras
#elseif OPENCOMBINE
import OpenCombine
import OpenCombineDispatch
#endif
import Benchmark
import Dispatch

func registerTimeAndAsyncScenarios() {
    registerBeyondScenarios()

    // receive(on:) an ImmediateScheduler: the operator's own cost, per send.
    Catalog.receiveOnImmediate.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = subject.receive(on: ImmediateScheduler.shared).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // receive(on:) a serial DispatchQueue: sends from this thread, deliveries on the queue,
    // measured until the last value has arrived. Per value.
    Catalog.receiveOnDispatch.register { benchmark in
        let queue = DispatchQueue(label: "receive-on")
        let subject = PassthroughSubject<Int, Never>()
        let arrived = DispatchSemaphore(value: 0)
        let tally = Tally()
        let expected = benchmark.scaledIterations.count
        #if OPENCOMBINE
        let scheduler = queue.ocombine
        #else
        let scheduler = queue
        #endif
        let cancellable = subject.receive(on: scheduler).sink { value in
            tally.sum &+= value
            tally.count += 1
            if tally.count == expected { arrived.signal() }
        }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
        }
        arrived.wait()
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // debounce on virtual time: each value is followed by a quiet period, so each one is
    // scheduled, fires and is delivered. Per value.
    Catalog.debounceVirtual.register { benchmark in
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = subject.debounce(for: 10, scheduler: scheduler).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
            scheduler.advance(by: 20)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // delay on virtual time: each value is scheduled and delivered after the delay. Per value.
    Catalog.delayVirtual.register { benchmark in
        let scheduler = VirtualTimeScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = subject.delay(for: 5, scheduler: scheduler).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
            scheduler.advance(by: 5)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // `for await` over `.values` of a 100k-element Sequence publisher: one demand per element.
    Catalog.valuesLoop.registerAsync { _ in
        var sum = 0
        for await value in (0..<Catalog.valuesLoop.operations).publisher.values {
            sum &+= value
        }
        blackHole(sum)
    }

    #if TETHER
    // Tether's AsyncSequence-backed publisher (Combine has none): 100k elements into a sink.
    Catalog.asyncSequencePublisher.registerAsync { _ in
        let sum = await sumOf(CountingSequence(count: Catalog.asyncSequencePublisher.operations).publisher)
        blackHole(sum)
    }

    // asyncMap with one and with four transforms in flight: 1,000 values, in order.
    Catalog.asyncMapOne.registerAsync { _ in
        let source = (0..<Catalog.asyncMapOne.operations).publisher
        blackHole(await sumOf(source.asyncMap(maxConcurrent: 1, Closures.asyncTransform)))
    }
    Catalog.asyncMapFour.registerAsync { _ in
        let source = (0..<Catalog.asyncMapFour.operations).publisher
        blackHole(await sumOf(source.asyncMap(maxConcurrent: 4, Closures.asyncTransform)))
    }
    #endif
}

/// Sinks `publisher` and returns the sum of its values once it has finished.
func sumOf<P: Publisher>(_ publisher: P) async -> Int where P.Output == Int, P.Failure == Never {
    let tally = Tally()
    let box = CancellableBox()
    await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
        box.cancellable = publisher.sink(
            receiveCompletion: { _ in finished.resume() },
            receiveValue: { tally.sum &+= $0 })
    }
    box.cancellable = nil
    return tally.sum
}

/// Holds a cancellable across the continuation above.
final class CancellableBox: @unchecked Sendable {
    var cancellable: AnyCancellable?
}

/// A minimal virtual-time scheduler (a test scheduler), written against Combine's `Scheduler`
/// protocol so both libraries run the same one: actions run when `advance(by:)` moves the clock
/// past their due time, in due-time then scheduling order.
final class VirtualTimeScheduler: Scheduler, @unchecked Sendable {
    struct Time: Strideable, Hashable {
        var ticks: Int
        func distance(to other: Time) -> Stride { Stride(other.ticks - ticks) }
        func advanced(by n: Stride) -> Time { Time(ticks: ticks + n.ticks) }
    }

    /// A number of ticks; `seconds(1)` is 1,000,000 ticks.
    struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
        ExpressibleByFloatLiteral
    {
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

    typealias SchedulerTimeType = Time
    typealias SchedulerOptions = Never

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

    func schedule(
        after date: Time, interval: Stride, tolerance: Stride, options: Never?, _ action: @escaping () -> Void
    ) -> Cancellable {
        // OpenCombine's debounce schedules its timer as a repeating action and cancels it after
        // the first firing.
        let repeating = Repeating()
        func fire(at due: Int) {
            enqueue(due: due) { [weak self] in
                guard !repeating.cancelled else { return }
                action()
                if !repeating.cancelled { self.map { _ in fire(at: due + max(interval.ticks, 1)) } }
            }
        }
        fire(at: date.ticks)
        return AnyCancellable { repeating.cancelled = true }
    }

    private final class Repeating {
        var cancelled = false
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

    private func enqueue(due: Int, _ run: @escaping () -> Void) {
        nextOrder += 1
        let action = Action(due: due, order: nextOrder, run: run)
        // Kept sorted by due time, then order; new actions are nearly always the latest.
        var index = actions.count
        while index > 0 && actions[index - 1].due > due { index -= 1 }
        actions.insert(action, at: index)
    }
}
