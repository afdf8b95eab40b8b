// Subjects, `@Published` and a bounded pipeline under contention from several threads.
//
// ContentionTether and ContentionOpenCombine hold this same file as their main.swift; the
// compilation condition picks the library. Each scenario prints tab-separated lines that
// report.py reads: `contention <library> <scenario> <metric> <value>`.
//
// Usage: Contention [scale]   (scale 1 is the full size; 0.1 a tenth, for a quick look)

#if TETHER
import Tether
let library = "Tether"
#elseif OPENCOMBINE
@preconcurrency import OpenCombine
@preconcurrency import OpenCombineDispatch
let library = "OpenCombine"
#else
#error("Build this file with TETHER or OPENCOMBINE defined")
#endif
import Dispatch
import Foundation
import Synchronization

let scale = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 1 : 1

func scaled(_ count: Int) -> Int { max(1, Int(Double(count) * scale)) }

func report(_ scenario: String, _ metric: String, _ value: Double) {
    print("contention\t\(library)\t\(scenario)\t\(metric)\t\(value)")
}

/// Resident memory, from /proc/self/statm.
func residentMegabytes() -> Double {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return 0 }
    return pages * 4096 / 1_048_576
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Spins for `nanoseconds`: a subscriber that does a little work per value.
func work(_ nanoseconds: UInt64) {
    let end = now() + nanoseconds
    while now() < end {}
}

/// Runs `body(thread)` on `threads` threads at once; returns the wall-clock seconds.
func concurrently(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) -> Double {
    let start = now()
    DispatchQueue.concurrentPerform(iterations: threads, execute: body)
    return Double(now() - start) / 1e9
}

/// The longest single call seen by any thread.
final class Longest: Sendable {
    private let nanoseconds = Mutex<UInt64>(0)
    func note(_ value: UInt64) { nanoseconds.withLock { $0 = max($0, value) } }
    var milliseconds: Double { Double(nanoseconds.withLock { $0 }) / 1e6 }
}

/// Three senders into one subject whose one sink takes `sinkNanoseconds` per value.
func sendersIntoOneSubject(_ name: String, sends: Int, sinkNanoseconds: UInt64) {
    let subject = PassthroughSubject<Int, Never>()
    let delivered = Atomic<Int>(0)
    let cancellable = subject.sink { _ in
        if sinkNanoseconds > 0 { work(sinkNanoseconds) }
        delivered.add(1, ordering: .relaxed)
    }
    let longest = Longest()
    let before = residentMegabytes()
    let seconds = concurrently(3) { _ in
        var mine: UInt64 = 0
        for value in 0..<sends {
            let start = now()
            subject.send(value)
            mine = max(mine, now() - start)
        }
        longest.note(mine)
    }
    report(name, "seconds", seconds)
    report(name, "longest send ms", longest.milliseconds)
    report(name, "RSS growth MB", residentMegabytes() - before)
    report(name, "delivered", Double(delivered.load(ordering: .relaxed)))
    cancellable.cancel()
}

/// Four threads set a `CurrentValueSubject`'s value, two read it, two sinks listen.
func currentValueSubject(operations: Int) {
    let subject = CurrentValueSubject<Int, Never>(0)
    let first = subject.sink { _ in }
    let second = subject.map { $0 + 1 }.sink { _ in }
    let seconds = concurrently(6) { thread in
        if thread < 4 {
            for value in 0..<operations { subject.value = value }
        } else {
            var total = 0
            for _ in 0..<operations { total &+= subject.value }
            if total == -1 { print(total) }
        }
    }
    report("CurrentValueSubject 4 writers 2 readers 2 sinks", "seconds", seconds)
    first.cancel()
    second.cancel()
}

final class Model: @unchecked Sendable {
    @Published var count = 0
}

/// Four threads set a `@Published` property that one sink listens to.
func published(operations: Int) {
    let model = Model()
    let cancellable = model.$count.sink { _ in }
    let seconds = concurrently(4) { _ in
        for value in 0..<operations { model.count = value }
    }
    report("@Published setter 4 threads", "seconds", seconds)
    cancellable.cancel()
}

/// Values through a bounded `flatMap` of `Just`, `buffer(64)` and `receive(on:)` to a subscriber
/// that asks for one at a time: the time for `count` values, and the resident memory after.
func pipeline(count: Int) {
    final class OneAtATime: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        let done = DispatchSemaphore(value: 0)
        var subscription: (any Subscription)?
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            subscription.request(.max(1))
        }
        func receive(_ input: Int) -> Subscribers.Demand { .max(1) }
        func receive(completion: Subscribers.Completion<Never>) { done.signal() }
    }
    let queue = DispatchQueue(label: "pipeline")
    #if OPENCOMBINE
    let scheduler = queue.ocombine
    #else
    let scheduler = queue
    #endif
    let subscriber = OneAtATime()
    let before = residentMegabytes()
    let start = now()
    (0..<count).publisher
        .flatMap(maxPublishers: .max(2)) { Just($0) }
        .buffer(size: 64, prefetch: .byRequest, whenFull: .dropNewest)
        .receive(on: scheduler)
        .subscribe(subscriber)
    subscriber.done.wait()
    let seconds = Double(now() - start) / 1e9
    report("pipeline \(count)", "seconds", seconds)
    report("pipeline \(count)", "RSS growth MB", residentMegabytes() - before)
}

sendersIntoOneSubject("3 senders, 5 µs sink", sends: scaled(100_000), sinkNanoseconds: 5_000)
sendersIntoOneSubject("3 senders, fast sink", sends: scaled(300_000), sinkNanoseconds: 0)
currentValueSubject(operations: scaled(200_000))
published(operations: scaled(200_000))
pipeline(count: scaled(160_000))
pipeline(count: scaled(640_000))
