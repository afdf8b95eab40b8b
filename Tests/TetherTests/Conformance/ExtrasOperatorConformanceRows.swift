import Foundation
import Tether
import TetherTesting

extension ConformanceTableTests {
    // Operators of TetherExtras: flatMapFirst, amb, collection combineLatest/zip, delayed retry,
    // switchIfEmpty, take(until:), the Observation bridge.
    static var extrasOperatorRows: [ConformanceRow] {
        [
            .cold(
                "Publishers.FlatMapFirst", elements: 5, options: .tether(),
                make: { Just(5).setFailureType(to: TestError.self).flatMapFirst { recorded($0) } },
                failing: { Just(2).setFailureType(to: TestError.self).flatMapFirst { recorded($0, thenFails: true) } }),
            .driven("Publishers.FlatMapFirst", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.flatMapFirst { Just($0).setFailureType(to: TestError.self) } }
            },
            // The first competitor is cold and wins at once; the second is never subscribed.
            .cold(
                "Publishers.Amb", elements: 5, options: .tether(),
                make: { recorded(5).amb(Empty<Int, TestError>(completeImmediately: false)) },
                failing: { recorded(2, thenFails: true).amb(Empty<Int, TestError>(completeImmediately: false)) }),
            .driven("Publishers.Amb", "subjects", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.amb(PassthroughSubject<Int, TestError>()) }
            },
            .cold(
                "Publishers.AmbMany", elements: 5, options: .tether(),
                // The other competitor never signals: with two that answer demand, which one wins
                // depends on which a concurrent request reaches first, so §1.3's count would be
                // timing, not a contract.
                make: { [recorded(5).eraseToAnyPublisher(), silent()].amb() },
                failing: { [recorded(2, thenFails: true).eraseToAnyPublisher(), silent()].amb() }),
            .driven("Publishers.AmbMany", "subjects", elements: 5, options: .tether(multicast: true)) {
                let losing = PassthroughSubject<Int, TestError>()
                return wrapped(passthroughUnderTest()) { $0.amb(with: losing, PassthroughSubject()) }
            },
            // One publisher: with several, requests from concurrent threads can reach a later one
            // first, and values it sends before the others have one make no combination (the
            // same timing makes the CombineLatest3 row flaky under load).
            .cold(
                "Publishers.CombineLatestCollection", elements: 5, options: .tether(keepsSubscriber: true),
                make: { [recorded(5)].combineLatest() },
                failing: { [recorded(2, thenFails: true)].combineLatest() }),
            .driven(
                "Publishers.CombineLatestCollection", "subject", elements: 5,
                options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { [$0].combineLatest() }
            },
            .cold(
                "Publishers.ZipCollection", elements: 5, options: .tether(keepsSubscriber: true),
                make: { [recorded(5), recorded(7)].zip() },
                failing: { [recorded(2, thenFails: true), recorded(7)].zip() }
            ),
            .cold("Publishers.ZipCollection", "empty", elements: 0, options: .completesAtOnce) {
                [Record<Int, TestError>]().zip()
            },
            // The first attempt sends two elements and fails; the retry, on the immediate
            // scheduler, sends the other three.
            .cold("Publishers.DelayedRetry", elements: 5, options: .tether()) {
                let attempts = AtomicCounter()
                return Deferred {
                    attempts.increment() == 1
                        ? Record<Int, TestError>(output: [0, 1], completion: .failure(TestError()))
                        : Record<Int, TestError>(output: [2, 3, 4], completion: .finished)
                }.retry(1, delay: .seconds(1), scheduler: ImmediateScheduler.shared)
            },
            .cold(
                "Publishers.SwitchIfEmpty", elements: 5, options: .tether(),
                make: { Empty<Int, TestError>().switchIfEmpty(recorded(5)) },
                failing: { Empty<Int, TestError>().switchIfEmpty(recorded(2, thenFails: true)) }),
            .cold(
                "Publishers.SwitchIfEmpty", "not empty", elements: 5, options: .tether(),
                make: { recorded(5).switchIfEmpty(recorded(3)) },
                failing: { recorded(2, thenFails: true).switchIfEmpty(recorded(3)) }),
            .cold(
                "Publishers.TakeUntil", elements: 5, options: .tether(keepsSubscriber: true),
                make: { recorded(9).take(until: { $0 == 5 }) },
                failing: { recorded(2, thenFails: true).take(until: { $0 == 5 }) }),
            .cold(
                "Publishers.TakeUntil", "inclusive", elements: 5, options: .tether(keepsSubscriber: true),
                make: { recorded(9).take(until: { $0 == 4 }, inclusive: true) },
                failing: { recorded(2, thenFails: true).take(until: { $0 == 4 }, inclusive: true) }),
            // Composed operators: the rows name the existing types they return.
            .driven("Publishers.CompactMap", "partition", elements: 5, options: .multicastIgnoringZeroDemand) {
                wrapped(passthroughUnderTest()) { $0.partition { $0 >= 0 }.matching }
            },
            .cold(
                "Publishers.Map", "withUnretained", elements: 5, options: .tether(keepsSubscriber: true),
                make: { recorded(5).withUnretained(extrasOperatorRowsOwner) { $1 } },
                failing: { recorded(2, thenFails: true).withUnretained(extrasOperatorRowsOwner) { $1 } }),
            // Never completes, like Published.Publisher: the current value, then each set, read
            // again once the scheduler runs (`send` sets, then runs it).
            .driven(
                "Publishers.Observed", elements: 5, options: .init(termination: .never, multicast: true),
                make: observedUnderTest),
        ]
    }
}

/// An `@Observable` model's `count`, published through a test scheduler that `send` runs after
/// each set.
func observedUnderTest() -> PublisherUnderTest<
    Publishers.Observed<
        ObservedModel, Int, TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
    >
> {
    let model = ObservedModel()
    let scheduler = DispatchQueue.test
    return .hot(
        model.publisher(for: \.count, scheduler: scheduler), replays: 1,
        send: { value in
            model.count = value
            scheduler.advance()
        },
        finish: {})
}

/// An object that outlives every row, for the `withUnretained` row.
let extrasOperatorRowsOwner = ReleaseProbe(id: 0)

/// A competitor that never signals anything, erased to sit in a collection with others.
private func silent() -> AnyPublisher<Int, TestError> {
    Empty<Int, TestError>(completeImmediately: false).eraseToAnyPublisher()
}
