// A soak test: Tether under sustained load from many threads at once, in an optimised build.
//
// Three threads send into one subject that feeds a map/scan sink and a bounded pipeline
// (flatMap of Just, merge, buffer, receive(on:)) drained one value at a time; a fourth sets a
// `@Published` property; a fifth subscribes and cancels chains with time operators on a real
// queue, over and over. Every second it prints throughput, percentiles of the time one `send()`
// takes, the live heap and resident memory. It exits non-zero when the live heap keeps growing,
// when the load leaves memory behind once it has stopped, when a `send()` takes longer than the
// bound, or when a value is lost.
//
// Memory is judged by the live heap (the allocator's bytes handed out and not freed), not by
// resident memory: time operators on a busy queue hold bursts of scheduled work, and the
// allocator keeps the pages those bursts touched resident after they are freed, so resident
// memory steps up on a loaded machine without anything being kept.
//
// Usage: tether-soak [--seconds N]   (default 180)

import Dispatch
import Foundation
import HeapInUse
import Synchronization
import Tether

let arguments = CommandLine.arguments
let seconds: Int = {
    if let flag = arguments.firstIndex(of: "--seconds"), flag + 1 < arguments.count,
        let value = Int(arguments[flag + 1]), value > 0
    {
        return value
    }
    return 180
}()

/// The longest a single `send()` may take. Senders take turns with a subscriber that does a
/// little work, so a send waits at most for the other senders' deliveries, not for a backlog.
let sendBoundMilliseconds = 250.0
/// How much the live heap's floor may rise from the second quarter of the run to the last.
let growthBoundMegabytes = 8.0
/// How much more the live heap may hold once the load has stopped and its work has run than it
/// held before the load began.
let leftBoundMegabytes = 2.0

func heapMegabytes() -> Double {
    Double(soak_heap_bytes_in_use()) / 1_048_576
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func residentMegabytes() -> Double {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return 0 }
    return pages * 4096 / 1_048_576
}

/// Durations in power-of-two buckets of nanoseconds, shared by the senders.
final class Histogram: Sendable {
    private let buckets = Mutex<[Int]>(Array(repeating: 0, count: 64))

    func add(_ local: [Int]) {
        buckets.withLock { buckets in
            for index in local.indices { buckets[index] += local[index] }
        }
    }

    /// Takes the counts so far, leaving zeros.
    func take() -> [Int] {
        buckets.withLock { buckets in
            defer { buckets = Array(repeating: 0, count: 64) }
            return buckets
        }
    }

    /// The upper bound of the bucket that holds the `fraction` quantile, in milliseconds.
    static func quantile(_ fraction: Double, of counts: [Int]) -> Double {
        let total = counts.reduce(0, +)
        guard total > 0 else { return 0 }
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if Double(seen) >= fraction * Double(total) { return Double(UInt64(1) << index) / 1e6 }
        }
        return Double(UInt64(1) << 63) / 1e6
    }
}

final class Model: @unchecked Sendable {
    @Published var level = 0
}

/// A subscriber that asks for one value at a time, and counts them.
final class OneAtATime: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let received = Atomic<Int>(0)
    func receive(subscription: any Subscription) { subscription.request(.max(1)) }
    func receive(_ input: Int) -> Subscribers.Demand {
        received.add(1, ordering: .relaxed)
        return .max(1)
    }
    func receive(completion: Subscribers.Completion<Never>) {}
}

let subject = PassthroughSubject<Int, Never>()
let side = PassthroughSubject<Int, Never>()
let model = Model()
let queue = DispatchQueue(label: "soak.delivery")
let timeQueue = CountingScheduler(label: "soak.time")

let scanned = Atomic<Int>(0)
let published = Atomic<Int>(0)
let sent = Atomic<Int>(0)
let rounds = Atomic<Int>(0)
let stop = Atomic<Bool>(false)
let histogram = Histogram()
let longest = Mutex<UInt64>(0)

var keep: [AnyCancellable] = []
keep.append(subject.map { $0 &* 2 }.filter { $0 >= 0 }.scan(0, &+).sink { _ in scanned.add(1, ordering: .relaxed) })
keep.append(model.$level.removeDuplicates().sink { _ in published.add(1, ordering: .relaxed) })
let drained = OneAtATime()
subject
    .flatMap(maxPublishers: .max(2)) { Just($0) }
    .merge(with: side)
    .buffer(size: 64, prefetch: .byRequest, whenFull: .dropOldest)
    .receive(on: queue)
    .subscribe(drained)

/// Returns once `timeQueue` has run the work that falls due within `delay` from now.
func waitForTheTimeQueue(after delay: DispatchTimeInterval) {
    let caughtUp = DispatchSemaphore(value: 0)
    timeQueue.queue.asyncAfter(deadline: .now() + delay) { caughtUp.signal() }
    caughtUp.wait()
}

/// The live heap once the long-lived subscriptions are made, before any load.
let heapAtStart = heapMegabytes()

let workers = DispatchGroup()

func startThread(_ body: @escaping @Sendable () -> Void) {
    workers.enter()
    Thread {
        body()
        workers.leave()
    }.start()
}

for _ in 0..<3 {
    startThread {
        var local = Array(repeating: 0, count: 64)
        var mine: UInt64 = 0
        var value = 0
        while !stop.load(ordering: .relaxed) {
            for _ in 0..<1_000 {
                let start = now()
                subject.send(value)
                let took = max(1, now() - start)
                local[63 - took.leadingZeroBitCount] += 1
                mine = max(mine, took)
                value &+= 1
            }
            sent.add(1_000, ordering: .relaxed)
            histogram.add(local)
            local = Array(repeating: 0, count: 64)
        }
        longest.withLock { $0 = max($0, mine) }
    }
}

startThread {
    var level = 0
    while !stop.load(ordering: .relaxed) {
        level &+= 1
        model.level = level
        if level % 64 == 0 { side.send(level) }
    }
}

startThread {
    var round = 0
    while !stop.load(ordering: .relaxed) {
        round += 1
        var churn: [AnyCancellable] = []
        churn.append(subject.map { $0 + 1 }.sink { _ in })
        // Debounced at the rate `side` is fed, not the setter's: debounce schedules an action per
        // value (as Combine's does), and a dispatch queue cannot drop the superseded ones, so a
        // million values a second would measure the queue's backlog, not Tether.
        churn.append(side.debounce(for: .milliseconds(1), scheduler: timeQueue).sink { _ in })
        churn.append(subject.throttle(for: .milliseconds(1), scheduler: timeQueue, latest: true).sink { _ in })
        churn.append(subject.delay(for: .microseconds(100), scheduler: timeQueue).sink { _ in })
        churn.append(
            subject.map { Just($0) }.switchToLatest().timeout(.seconds(1), scheduler: timeQueue).sink { _ in })
        if round % 2 == 0 { Thread.sleep(forTimeInterval: 0.001) }
        for cancellable in churn { cancellable.cancel() }
        // Waits for the time queue to run the work that is due (timeout's deliveries, delay's
        // values sent more than 100 µs ago): the senders do not wait for that queue, and on a
        // loaded machine they outrun it, so without this its backlog grows for as long as the
        // machine stays loaded and reads as a leak. The queue now holds about one round's work.
        timeQueue.queue.sync {}
        rounds.add(1, ordering: .relaxed)
    }
}

print("second\tsends/s\tp50 ms\tp99 ms\tp99.9 ms\tlowest heap MB\tRSS MB\tmost time actions waiting")
var heap: [Double] = []
var lastSent = 0
for second in 1...seconds {
    // The live heap's lowest of ten samples in the second: bursts of scheduled work come and go
    // within it, what is kept stays.
    var lowestThisSecond = Double.infinity
    var mostWaiting = 0
    for _ in 0..<10 {
        Thread.sleep(forTimeInterval: 0.1)
        lowestThisSecond = min(lowestThisSecond, heapMegabytes())
        mostWaiting = max(mostWaiting, timeQueue.pendingCount)
    }
    let counts = histogram.take()
    let total = sent.load(ordering: .relaxed)
    heap.append(lowestThisSecond)
    print(
        "\(second)\t\(total - lastSent)\t\(Histogram.quantile(0.5, of: counts))\t"
            + "\(Histogram.quantile(0.99, of: counts))\t\(Histogram.quantile(0.999, of: counts))\t"
            + String(format: "%.1f\t%.1f\t", heap.last!, residentMegabytes()) + "\(mostWaiting)")
    lastSent = total
}
stop.store(true, ordering: .relaxed)
workers.wait()
// The bounded pipeline drains on its queue; give it a moment to settle.
queue.sync {}
for cancellable in keep { cancellable.cancel() }
// Everything the load made is gone once the queues have run what was scheduled: a leak stays.
for _ in 0..<2_000 where timeQueue.pendingCount > 0 {
    waitForTheTimeQueue(after: .milliseconds(5))
}
queue.sync {}
let heapLeft = heapMegabytes() - heapAtStart
// Every chain that schedules on the time queue has been cancelled: values sent now must schedule
// nothing there. One that does is a subscription still attached after its cancel.
let scheduledBeforeProbe = timeQueue.scheduledCount
for value in 0..<100 {
    subject.send(value)
    side.send(value)
}
let scheduledAfterCancel = timeQueue.scheduledCount - scheduledBeforeProbe

var failures: [String] = []
let longestMilliseconds = Double(longest.withLock { $0 }) / 1e6
print(String(format: "longest send: %.2f ms", longestMilliseconds))
if longestMilliseconds > sendBoundMilliseconds {
    failures.append(String(format: "a send took %.1f ms (bound %.0f ms)", longestMilliseconds, sendBoundMilliseconds))
}
// The floors of the second and the last quarter, over each second's lowest sample: the heap
// swings by tens of megabytes within a second while bursts of scheduled work (delay's, on a busy
// queue) come and go, so a median of single samples can land on bursts; a leak raises the floor
// the heap keeps coming back to.
func lowest(_ samples: ArraySlice<Double>) -> Double {
    samples.min() ?? 0
}
let quarter = max(1, heap.count / 4)
let growth = lowest(heap[(heap.count - quarter)...]) - lowest(heap[quarter..<min(heap.count, 2 * quarter)])
print(String(format: "live heap growth, second quarter to last (floors): %.1f MB", growth))
if growth > growthBoundMegabytes {
    failures.append(String(format: "the live heap's floor rose %.1f MB (bound %.0f MB)", growth, growthBoundMegabytes))
}
print(String(format: "live heap after the load, against before it: %+.2f MB", heapLeft))
if heapLeft > leftBoundMegabytes {
    failures.append(
        String(format: "the load left %.2f MB on the live heap (bound %.0f MB)", heapLeft, leftBoundMegabytes))
}
if scheduledAfterCancel != 0 {
    failures.append("values sent after every chain was cancelled scheduled \(scheduledAfterCancel) actions")
}
let totalSent = sent.load(ordering: .relaxed)
if scanned.load(ordering: .relaxed) != totalSent {
    failures.append("the map/scan sink received \(scanned.load(ordering: .relaxed)) of \(totalSent) values")
}
if drained.received.load(ordering: .relaxed) == 0 {
    failures.append("the bounded pipeline delivered nothing")
}
if published.load(ordering: .relaxed) == 0 {
    failures.append("the @Published sink received nothing")
}
if failures.isEmpty {
    print("soak: passed (\(totalSent) sends, \(rounds.load(ordering: .relaxed)) churn rounds in \(seconds) s)")
} else {
    for failure in failures { print("soak: FAILED: \(failure)") }
    exit(1)
}
