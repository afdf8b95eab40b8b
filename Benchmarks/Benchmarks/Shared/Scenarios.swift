// Every library scenario, written once against Combine's API.
//
// TetherBench and OpenCombineBench each hold a symlink to this file; the only difference between
// the two builds is the module picked below, so both libraries run literally the same code.

#if TETHER
import Tether
#elseif OPENCOMBINE
import OpenCombine
#else
#error("Build this file with TETHER or OPENCOMBINE defined")
#endif
import Benchmark

let benchmarks: @Sendable () -> Void = {
    // A 1M-element Sequence publisher through map and filter into sink: per element.
    Catalog.sequenceMapFilter.register { benchmark in
        let tally = Tally()
        let cancellable = mapFilterSink(benchmark.scaledIterations.publisher, into: tally)
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // A subscriber that asks for one value at a time, by returning `.max(1)` from `receive(_:)`.
    Catalog.sequenceMaxOne.register { benchmark in
        let subscriber = OneAtATime(asksInsideReceive: false)
        subscribeGenerically(benchmark.scaledIterations.publisher, subscriber)
        blackHole(subscriber.sum)
    }

    // The same, but asking with `subscription.request(.max(1))` from inside `receive(_:)`
    // (a reentrant request) and returning `.none`.
    Catalog.sequenceRequestOne.register { benchmark in
        let subscriber = OneAtATime(asksInsideReceive: true)
        subscribeGenerically(benchmark.scaledIterations.publisher, subscriber)
        blackHole(subscriber.sum)
    }

    // PassthroughSubject.send into one sink: per send, subscription made outside the measurement.
    Catalog.passthroughOne.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = subject.sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // PassthroughSubject.send into ten sinks: per send (ten deliveries).
    Catalog.passthroughTen.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellables = (0..<10).map { _ in subject.sink { tally.sum &+= $0 } }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
        }
        benchmark.stopMeasurement()
        for cancellable in cancellables {
            cancellable.cancel()
        }
        blackHole(tally.sum)
    }

    // CurrentValueSubject through map into sink: per send.
    Catalog.currentValueMap.register { benchmark in
        let subject = CurrentValueSubject<Int, Never>(0)
        let tally = Tally()
        let cancellable = subject.map(Closures.transform).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // A subject behind a buffer, read in batches: four sends wait in the buffer, then one
    // request(.max(4)) hands them over as a batch. Per value; subscription made outside.
    Catalog.subjectBufferBatches.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let reader = BatchReader()
        subject.buffer(size: 16, prefetch: .byRequest, whenFull: .dropOldest).subscribe(reader)
        var waiting = 0
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
            waiting += 1
            if waiting == 4 {
                reader.subscription?.request(.max(4))
                waiting = 0
            }
        }
        benchmark.stopMeasurement()
        reader.subscription?.cancel()
        blackHole(reader.sum)
    }

    #if HAS_JUST
    // Just(x).map.sink made and cancelled: the cost of setting a chain up and tearing it down.
    // Written as users write it, so each library's own `Just.map` overload is the one measured.
    Catalog.justMapSink.register { benchmark in
        let tally = Tally()
        for value in benchmark.scaledIterations {
            let cancellable = Just(value).map(Closures.transform).sink { tally.sum &+= $0 }
            cancellable.cancel()
        }
        blackHole(tally.sum)
    }
    #endif

    // subject.sink subscribed and cancelled: allocations and time per pair. The sink's closure
    // captures nothing, so the figures are the library's own. One pair runs before the
    // measurement so that storage a subject makes once (and keeps) is not counted.
    Catalog.subjectSinkCancel.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        subject.sink { _ in }.cancel()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let cancellable = subject.sink { _ in }
            cancellable.cancel()
        }
        benchmark.stopMeasurement()
    }

    // RxSwift's PublishSubjectPumping: subject, one subscription, N sends, dispose. Unlike the
    // send scenarios above, the subscribe and cancel fall inside the measurement, as in RxSwift.
    Catalog.rxPumping.register { benchmark in
        let tally = Tally()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { tally.sum &+= $0 }
        for _ in benchmark.scaledIterations {
            subject.send(1)
        }
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // RxSwift's PublishSubjectPumpingTwoSubscriptions.
    Catalog.rxPumpingTwo.register { benchmark in
        let tally = Tally()
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.sink { tally.sum &+= $0 }
        let second = subject.sink { tally.sum &+= $0 }
        for _ in benchmark.scaledIterations {
            subject.send(1)
        }
        first.cancel()
        second.cancel()
        blackHole(tally.sum)
    }

    // RxSwift's PublishSubjectCreating: per operation, a new subject, one subscription, one send
    // and a cancel.
    Catalog.rxCreating.register { benchmark in
        let tally = Tally()
        for _ in benchmark.scaledIterations {
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.sink { tally.sum &+= $0 }
            subject.send(1)
            cancellable.cancel()
        }
        blackHole(tally.sum)
    }

    // RxSwift's MapFilterPumping: one subscription to a synchronous source (RxSwift uses
    // Observable.create with a loop; here a Sequence publisher of N ones) through six
    // map/filter pairs: per element.
    Catalog.rxMapFilterPumping.register { benchmark in
        let tally = Tally()
        let cancellable = sixMapFilterPairs(
            repeatElement(1, count: benchmark.scaledIterations.count).publisher, into: tally)
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // RxSwift's MapFilterCreating: per operation, a one-element source through six map/filter
    // pairs, subscribed and cancelled.
    Catalog.rxMapFilterCreating.register { benchmark in
        let tally = Tally()
        for _ in benchmark.scaledIterations {
            let cancellable = sixMapFilterPairs(CollectionOfOne(1).publisher, into: tally)
            cancellable.cancel()
        }
        blackHole(tally.sum)
    }
    // RxSwift's FlatMapsPumping: one subscription, each element through five chained
    // `flatMap { Just($0) }`: per element.
    Catalog.rxFlatMapsPumping.register { benchmark in
        let tally = Tally()
        let cancellable = fiveFlatMaps(repeatElement(1, count: benchmark.scaledIterations.count).publisher, into: tally)
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // RxSwift's FlatMapsCreating: per operation, a one-element source through the five flatMaps.
    Catalog.rxFlatMapsCreating.register { benchmark in
        let tally = Tally()
        for _ in benchmark.scaledIterations {
            fiveFlatMaps(CollectionOfOne(1).publisher, into: tally).cancel()
        }
        blackHole(tally.sum)
    }

    // RxSwift's FlatMapLatestPumping: five `map { Just($0) }.switchToLatest()`: per element.
    Catalog.rxFlatMapLatestPumping.register { benchmark in
        let tally = Tally()
        let cancellable = fiveSwitches(repeatElement(1, count: benchmark.scaledIterations.count).publisher, into: tally)
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // RxSwift's FlatMapLatestCreating: per operation, a one-element source through the five.
    Catalog.rxFlatMapLatestCreating.register { benchmark in
        let tally = Tally()
        for _ in benchmark.scaledIterations {
            fiveSwitches(CollectionOfOne(1).publisher, into: tally).cancel()
        }
        blackHole(tally.sum)
    }

    // zip of two subjects: per pair of sends (one tuple out).
    Catalog.zipTwoSubjects.register { benchmark in
        let tally = Tally()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let cancellable = left.zip(right).sink { tally.sum &+= $0.0 &+ $0.1 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            left.send(value)
            right.send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // scan then removeDuplicates over a 1M-element Sequence publisher: per element.
    Catalog.scanRemoveDuplicates.register { benchmark in
        let tally = Tally()
        let cancellable = scanRemoveDuplicatesSink(benchmark.scaledIterations.publisher, into: tally)
        cancellable.cancel()
        blackHole(tally.sum)
    }

    #if TETHER
    // OpenCombine 0.14.0 has neither merge nor combineLatest: these run on Tether alone.

    // merge of two subjects: per send (alternating subjects).
    Catalog.mergeTwoSubjects.register { benchmark in
        let tally = Tally()
        let left = PassthroughSubject<Int, Never>()
        let right = PassthroughSubject<Int, Never>()
        let cancellable = left.merge(with: right).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            if value & 1 == 0 { left.send(value) } else { right.send(value) }
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // RxSwift's CombineLatestPumping: three `Just(1)` combined with a source, then six more
    // levels of three `Just(1)` combined with the level below: per element, each of which goes
    // through all seven levels (the source comes last, after the `Just`s).
    Catalog.rxCombineLatestPumping.register { benchmark in
        let tally = Tally()
        let count = benchmark.scaledIterations.count
        let cancellable = sevenCombineLatestsPumping(repeatElement(1, count: count).publisher, into: tally)
        cancellable.cancel()
        precondition(tally.sum == count, "every pumped value reaches the sink")
        blackHole(tally.sum)
    }

    // RxSwift's CombineLatestCreating: per operation, a one-element source through the seven levels.
    Catalog.rxCombineLatestCreating.register { benchmark in
        let tally = Tally()
        for _ in benchmark.scaledIterations {
            sevenCombineLatests(CollectionOfOne(1).publisher, into: tally).cancel()
        }
        blackHole(tally.sum)
    }
    #endif

    registerTimeAndAsyncScenarios()
    registerAppScenarios()
}

// The generic helpers below take any `P: Publisher`, so `map` and `filter` resolve to the
// operators of `Publisher` itself. Combine (and OpenCombine) also give `Publishers.Sequence`
// eager `map`/`filter` overloads that transform the whole sequence up front; called on a concrete
// Sequence publisher those would run instead, and the scenario would not measure the operators.

/// `upstream.map(transform).filter(isIncluded).sink { … }`, through the generic operators.
func mapFilterSink<P: Publisher>(_ upstream: P, into tally: Tally) -> AnyCancellable
where P.Output == Int, P.Failure == Never {
    upstream
        .map(Closures.transform)
        .filter(Closures.isIncluded)
        .sink { tally.sum &+= $0 }
}

func subscribeGenerically<P: Publisher>(_ upstream: P, _ subscriber: OneAtATime)
where P.Output == Int, P.Failure == Never {
    upstream.subscribe(subscriber)
}

/// A subscriber that asks for nothing itself: the scenario requests through `subscription`.
final class BatchReader: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    var subscription: (any Subscription)?
    var sum = 0

    func receive(subscription: any Subscription) {
        self.subscription = subscription
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        sum &+= input
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        subscription = nil
    }
}

/// A subscriber that keeps exactly one value of demand outstanding.
final class OneAtATime: Subscriber {
    typealias Input = Int
    typealias Failure = Never

    let asksInsideReceive: Bool
    var subscription: (any Subscription)?
    var sum = 0

    init(asksInsideReceive: Bool) {
        self.asksInsideReceive = asksInsideReceive
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        sum &+= input
        if asksInsideReceive {
            subscription?.request(.max(1))
            return .none
        }
        return .max(1)
    }

    func receive(completion: Subscribers.Completion<Never>) {
        subscription = nil
    }
}

/// `scan` then `removeDuplicates`, through the generic operators.
func scanRemoveDuplicatesSink<P: Publisher>(_ upstream: P, into tally: Tally) -> AnyCancellable
where P.Output == Int, P.Failure == Never {
    upstream
        .scan(0) { $0 &+ ($1 & 1) }
        .removeDuplicates()
        .sink { tally.sum &+= $0 }
}
