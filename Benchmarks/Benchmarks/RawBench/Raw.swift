// The floor: plain Swift loops calling the same closures the library scenarios hand to their
// operators and sinks, with no reactive library in between.
//
// Every closure goes through `identity`, which the optimiser cannot see into, so each call stays
// an indirect closure call as it is in a pipeline; the floor is what calling the user's closures
// costs, not what an optimiser that inlined them would make of the loop.

import Benchmark
import Foundation

let benchmarks: @Sendable () -> Void = {
    Catalog.sequenceMapFilter.register { benchmark in
        let tally = Tally()
        let transform = identity(Closures.transform)
        let isIncluded = identity(Closures.isIncluded)
        let receive = identity({ (value: Int) in tally.sum &+= value })
        for element in benchmark.scaledIterations {
            let value = transform(element)
            if isIncluded(value) {
                receive(value)
            }
        }
        blackHole(tally.sum)
    }

    // A subscriber with one value of demand at a time still receives each element by one call.
    for scenario in [Catalog.sequenceMaxOne, Catalog.sequenceRequestOne] {
        scenario.register { benchmark in
            let tally = Tally()
            let receive = identity({ (value: Int) in tally.sum &+= value })
            for element in benchmark.scaledIterations {
                receive(element)
            }
            blackHole(tally.sum)
        }
    }

    // An observer block on a private center: what the center's dispatch costs per post.
    Catalog.appNotification.register { benchmark in
        let center = NotificationCenter()
        let name = Notification.Name("App.changed")
        let tally = Tally()
        // The block is `@Sendable`; the benchmark posts from one thread only.
        nonisolated(unsafe) let receive = identity({ (value: Int) in tally.sum &+= value })
        let observer = center.addObserver(forName: name, object: nil, queue: nil) { _ in receive(1) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { center.post(name: name, object: nil) }
        benchmark.stopMeasurement()
        center.removeObserver(observer)
        blackHole(tally.sum)
    }

    // The write `assign(to:on:)` makes: a closure, then the standard library's write through a
    // `ReferenceWritableKeyPath`.
    Catalog.appAssign.register { benchmark in
        let label = Label()
        let transform = identity({ (value: Int) in value &* 2 })
        let keyPath = identity(\Label.text)
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { label[keyPath: keyPath] = transform(value) }
        benchmark.stopMeasurement()
        blackHole(label.text)
    }

    // What `receive(on:)` a serial queue cannot do without: one `async` a value, sent from this
    // thread and run on the queue, measured until the last has run.
    Catalog.receiveOnDispatch.register { benchmark in
        let queue = DispatchQueue(label: "receive-on")
        let arrived = DispatchSemaphore(value: 0)
        let tally = Tally()
        let expected = benchmark.scaledIterations.count
        // The work runs on the queue, one block at a time, in order.
        nonisolated(unsafe) let receive = identity({ (value: Int) in
            tally.sum &+= value
            tally.count += 1
            if tally.count == expected { arrived.signal() }
        })
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            queue.async { receive(value) }
        }
        arrived.wait()
        benchmark.stopMeasurement()
        blackHole(tally.sum)
    }

    // What `delay` on the virtual-time scheduler cannot do without: one action a value, scheduled
    // on the same scheduler, holding the value where the action finds it, run when the clock
    // moves past it. The action captures one object, as the operator's does (no closure context
    // is allocated).
    registerSchedulerFloor(Catalog.delayVirtual, after: 5, advance: 5, repeating: false)

    // What `debounce` cannot do without: Combine's debounce starts a repeating timer for each
    // value and cancels it once it has fired, so the floor starts one on the same scheduler,
    // runs it once and cancels it (the `AnyCancellable` the libraries wrap it in is theirs).
    registerSchedulerFloor(Catalog.debounceVirtual, after: 10, advance: 20, repeating: true)

    Catalog.passthroughOne.register { benchmark in
        let tally = Tally()
        let receive = identity({ (value: Int) in tally.sum &+= value })
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            receive(value)
        }
        benchmark.stopMeasurement()
        blackHole(tally.sum)
    }

    Catalog.passthroughTen.register { benchmark in
        let tally = Tally()
        let receivers = identity((0..<10).map { _ in { (value: Int) in tally.sum &+= value } })
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            for receive in receivers {
                receive(value)
            }
        }
        benchmark.stopMeasurement()
        blackHole(tally.sum)
    }

    // A current value kept, transformed, and handed on.
    Catalog.currentValueMap.register { benchmark in
        let tally = Tally()
        let current = Tally()
        let transform = identity(Closures.transform)
        let receive = identity({ (value: Int) in tally.sum &+= value })
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            current.sum = value
            receive(transform(value))
        }
        benchmark.stopMeasurement()
        blackHole(tally.sum &+ current.sum)
    }

    Catalog.rxPumping.register { benchmark in
        let tally = Tally()
        let receive = identity({ (value: Int) in tally.sum &+= value })
        for _ in benchmark.scaledIterations {
            receive(1)
        }
        blackHole(tally.sum)
    }

    Catalog.rxPumpingTwo.register { benchmark in
        let tally = Tally()
        let first = identity({ (value: Int) in tally.sum &+= value })
        let second = identity({ (value: Int) in tally.sum &+= value })
        for _ in benchmark.scaledIterations {
            first(1)
            second(1)
        }
        blackHole(tally.sum)
    }

    // Six map/filter pairs, unrolled: twelve closure calls per element, then the sink's.
    Catalog.rxMapFilterPumping.register { benchmark in
        let tally = Tally()
        let receive = identity({ (value: Int) in tally.sum &+= value })
        let m = (0..<6).map { _ in identity({ (value: Int) -> Int in value }) }
        let f = (0..<6).map { _ in identity({ (_: Int) -> Bool in true }) }
        let (m0, m1, m2, m3, m4, m5) = (m[0], m[1], m[2], m[3], m[4], m[5])
        let (f0, f1, f2, f3, f4, f5) = (f[0], f[1], f[2], f[3], f[4], f[5])
        for _ in benchmark.scaledIterations {
            var value = m0(1)
            guard f0(value) else { continue }
            value = m1(value)
            guard f1(value) else { continue }
            value = m2(value)
            guard f2(value) else { continue }
            value = m3(value)
            guard f3(value) else { continue }
            value = m4(value)
            guard f4(value) else { continue }
            value = m5(value)
            guard f5(value) else { continue }
            receive(value)
        }
        blackHole(tally.sum)
    }

    // The async floors: a plain AsyncStream loop, and the counting AsyncSequence iterated directly.
    Catalog.valuesLoop.registerAsync { _ in
        let count = Catalog.valuesLoop.operations
        let stream = AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
            for value in 0..<count { continuation.yield(value) }
            continuation.finish()
        }
        var sum = 0
        for await value in stream { sum &+= value }
        blackHole(sum)
    }

    Catalog.asyncSequencePublisher.registerAsync { _ in
        // The sink's closure, hidden from the optimiser as in the other floors (a plain sum over
        // a sequence that never suspends folds away).
        let tally = Tally()
        let receive = identity({ (value: Int) in tally.sum &+= value })
        for await value in CountingSequence(count: Catalog.asyncSequencePublisher.operations) { receive(value) }
        blackHole(tally.sum)
    }

    for scenario in [Catalog.asyncMapOne, Catalog.asyncMapFour] {
        scenario.registerAsync { _ in
            let count = scenario.operations
            let stream = AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
                for value in 0..<count { continuation.yield(value) }
                continuation.finish()
            }
            var sum = 0
            for await value in stream { sum &+= await Closures.asyncTransform(value) }
            blackHole(sum)
        }
    }
}

final class Tally: @unchecked Sendable {
    var sum = 0
    var count = 0
}

final class Label {
    var text = 0
}

/// Registers the floor of a virtual-time row: for each value, the value set where the action
/// finds it, one action `after` ticks from now (or a repeating timer every `after` ticks, which
/// the action cancels once it has run), and the clock moved `advance` ticks.
func registerSchedulerFloor(_ scenario: Scenario, after: Int, advance: Int, repeating: Bool) {
    scenario.register { benchmark in
        let scheduler = VirtualTimeScheduler()
        let tally = Tally()
        let pending = PendingValue(identity({ (value: Int) in tally.sum &+= value }))
        let due = VirtualTimeScheduler.Stride(after)
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            pending.value = value
            if repeating {
                pending.timer = scheduler.scheduleRepeating(after: scheduler.now.advanced(by: due), interval: due) {
                    pending.deliver()
                    pending.timer?.cancel()
                }
            } else {
                scheduler.schedule(after: scheduler.now.advanced(by: due), tolerance: 0, options: nil) {
                    pending.deliver()
                }
            }
            scheduler.advance(by: VirtualTimeScheduler.Stride(advance))
        }
        benchmark.stopMeasurement()
        blackHole(tally.sum)
    }
}

/// The value a scheduled action delivers, where it goes, and the repeating timer delivering it.
final class PendingValue {
    var value = 0
    var timer: VirtualTimeScheduler.RepeatingTimer?
    let receive: (Int) -> Void

    init(_ receive: @escaping (Int) -> Void) {
        self.receive = receive
    }

    func deliver() {
        receive(value)
    }
}
