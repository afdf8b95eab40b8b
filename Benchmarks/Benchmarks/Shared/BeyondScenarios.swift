// Tether's "beyond Combine" operators. Neither Combine nor OpenCombine has them, so these are
// Tether's own figures (TetherBench and OpenCombineBench both hold this file; the OpenCombine
// build compiles it to nothing).

#if TETHER
import Tether
import TetherExtras
import Benchmark

func registerBeyondScenarios() {
    // Five chained flatMapLatest { Just($0) }, as RxSwift's FlatMapLatestPumping: per element.
    Catalog.flatMapLatestPumping.register { benchmark in
        let tally = Tally()
        let source = repeatElement(1, count: benchmark.scaledIterations.count).publisher
        let cancellable =
            source
            .flatMapLatest { Just($0) }.flatMapLatest { Just($0) }.flatMapLatest { Just($0) }
            .flatMapLatest { Just($0) }.flatMapLatest { Just($0) }
            .sink { tally.sum &+= $0 }
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Five chained concatMap { Just($0) }: per element.
    Catalog.concatMapPumping.register { benchmark in
        let tally = Tally()
        let source = repeatElement(1, count: benchmark.scaledIterations.count).publisher
        let cancellable =
            source
            .concatMap { Just($0) }.concatMap { Just($0) }.concatMap { Just($0) }
            .concatMap { Just($0) }.concatMap { Just($0) }
            .sink { tally.sum &+= $0 }
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Five chained flatMapFirst { Just($0) } (each inner ends at once, so nothing is dropped).
    Catalog.flatMapFirstPumping.register { benchmark in
        let tally = Tally()
        let source = repeatElement(1, count: benchmark.scaledIterations.count).publisher
        let cancellable =
            source
            .flatMapFirst { Just($0) }.flatMapFirst { Just($0) }.flatMapFirst { Just($0) }
            .flatMapFirst { Just($0) }.flatMapFirst { Just($0) }
            .sink { tally.sum &+= $0 }
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // A subject's values combined with another subject's latest value: per send.
    Catalog.withLatestFromSend.register { benchmark in
        let values = PassthroughSubject<Int, Never>()
        let latest = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = values.withLatestFrom(latest) { $0 &+ $1 }.sink { tally.sum &+= $0 }
        latest.send(1)
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            values.send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // ReplaySubject(bufferSize: 16) into one sink: per send (the buffer is kept as well).
    Catalog.replaySubjectSend.register { benchmark in
        let subject = ReplaySubject<Int, Never>(bufferSize: 16)
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

    // The winner of an amb between two subjects: per send after the race is decided.
    Catalog.ambWinnerSend.register { benchmark in
        let winner = PassthroughSubject<Int, Never>()
        let loser = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = winner.amb(loser).sink { tally.sum &+= $0 }
        winner.send(0)
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            winner.send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // combineLatest over a collection of eight subjects, sent to round-robin: per send.
    Catalog.combineLatestCollectionSend.register { benchmark in
        let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
        let tally = Tally()
        let cancellable = subjects.combineLatest().sink { tally.sum &+= $0.count }
        for subject in subjects { subject.send(0) }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subjects[value & 7].send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // withUnretained(owner) over a 1M-element Sequence: per element.
    Catalog.withUnretainedPumping.register { benchmark in
        let owner = Tally()
        let cancellable = benchmark.scaledIterations.publisher
            .withUnretained(owner)
            .sink { owner, value in owner.sum &+= value }
        cancellable.cancel()
        blackHole(owner.sum)
    }

    // materialize then dematerialize over a 1M-element Sequence: per element.
    Catalog.materializeRoundTrip.register { benchmark in
        let tally = Tally()
        let cancellable = benchmark.scaledIterations.publisher
            .materialize().dematerialize()
            .sink { tally.sum &+= $0 }
        cancellable.cancel()
        blackHole(tally.sum)
    }
}
#else
func registerBeyondScenarios() {}
#endif
