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
