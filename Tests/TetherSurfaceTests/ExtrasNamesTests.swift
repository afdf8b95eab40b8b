import Tether
import XCTest

// Code written for Combine is free to declare any name Combine does not: CombineExt declares
// `Publishers.Amb`, `Event`, `ReplaySubject`, `share(replay:)`, the collection `zip()`… Here the
// code is such a user's, compiled with only `import Tether`: it declares again every name that
// TetherExtras declares (`.ci/api-check` keeps this file complete) and uses each one where an
// ambiguity with a Tether declaration would fail to compile.

enum AssignOwnership { case weak, strong }
final class CancellableBag { var count = 0 }
struct CurrentValueRelay<Output> { var value: Output }
enum Event<Output, Failure: Error> { case value(Output), failure(Failure), finished }
final class Lifetime { var hasEnded = false }
struct PassthroughRelay<Output> { func accept(_ value: Output) -> Output { value } }
protocol Relay { associatedtype Output }
struct ReplaySubject<Output, Failure: Error> { let bufferSize: Int }
enum SubscriptionLedger { static let liveCount = -1 }

extension Publishers {
    struct Amb { let name = "Amb" }
    struct AmbMany { let name = "AmbMany" }
    struct AsyncMap { let name = "AsyncMap" }
    struct AsyncSequencePublisher { let name = "AsyncSequencePublisher" }
    struct CombineLatestCollection { let name = "CombineLatestCollection" }
    struct DelayedRetry { let name = "DelayedRetry" }
    struct Dematerialize { let name = "Dematerialize" }
    struct FlatMapFirst { let name = "FlatMapFirst" }
    struct Materialize { let name = "Materialize" }
    struct Observed { let name = "Observed" }
    struct SwitchIfEmpty { let name = "SwitchIfEmpty" }
    struct TakeUntil { let name = "TakeUntil" }
    struct TryAsyncMap { let name = "TryAsyncMap" }
    struct WithLatestFrom { let name = "WithLatestFrom" }
    struct ZipCollection { let name = "ZipCollection" }
}

extension Subscribers {
    struct AsyncSink { let name = "AsyncSink" }
}

extension AnyPublisher {
    struct Emitter { let name = "Emitter" }
    static func create(_ body: (Emitter) -> Void) -> String { "create" }
}

extension Future where Failure == Never {
    convenience init(_ operation: @escaping @Sendable () async -> Output, tag: String) {
        self.init { promise in Task { promise(.success(await operation())) } }
    }
}

extension Cancellable {
    func store(in bag: CancellableBag) { bag.count += 1 }
    func store(in lifetime: Lifetime) { lifetime.hasEnded = false }
}

extension Collection where Element: Publisher {
    func amb() -> String { "amb" }
    func combineLatest() -> String { "combineLatest" }
    func merge() -> String { "merge" }
    func zip() -> String { "zip" }
}

extension Publisher {
    func amb<Other: Publisher>(_ other: Other) -> String { "amb" }
    func amb<Other: Publisher>(with other: Other) -> String { "amb(with:)" }
    func asyncMap<T>(maxConcurrent: Int = 1, _ transform: @escaping (Output) async -> T) -> String { "asyncMap" }
    func tryAsyncMap<T>(maxConcurrent: Int = 1, _ transform: @escaping (Output) async throws -> T) -> String {
        "tryAsyncMap"
    }
    func asyncSink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) async -> Void,
        receiveValue: @escaping (Output) async -> Void
    ) -> String {
        "asyncSink"
    }
    func collectValues() -> String { "collectValues" }
    func concatMap<P: Publisher>(_ transform: @escaping (Output) -> P) -> String { "concatMap" }
    func debug(_ prefix: String = "", to stream: String = "", file: String = "", line: Int = 0) -> String { "debug" }
    func dematerialize() -> String { "dematerialize" }
    func enumerated() -> String { "enumerated" }
    var firstValue: String { "firstValue" }
    func flatMapFirst<P: Publisher>(_ transform: @escaping (Output) -> P) -> String { "flatMapFirst" }
    func flatMapLatest<P: Publisher>(_ transform: @escaping (Output) -> P) -> String { "flatMapLatest" }
    func ignoreFailure() -> String { "ignoreFailure" }
    func mapToResult() -> String { "mapToResult" }
    func materialize() -> String { "materialize" }
    func nwise(_ size: Int) -> String { "nwise" }
    func pairwise() -> String { "pairwise" }
    func partition(_ predicate: @escaping (Output) -> Bool) -> String { "partition" }
    func prefix<S: Scheduler>(
        duration: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> String {
        "prefix(duration:)"
    }
    func prefix(during lifetime: Lifetime) -> String { "prefix(during:)" }
    func replaceEmpty(withError error: Failure) -> String { "replaceEmpty(withError:)" }
    func retry<S: Scheduler>(
        _ retries: Int, delay: S.SchedulerTimeType.Stride, backoff: Double = 1, scheduler: S,
        options: S.SchedulerOptions? = nil
    ) -> String {
        "retry(_:delay:)"
    }
    func retry<P: Publisher, S: Scheduler>(
        when trigger: @escaping (Failure) -> P, scheduler: S, options: S.SchedulerOptions? = nil
    ) -> String {
        "retry(when:)"
    }
    func share(replay: Int) -> String { "share(replay:)" }
    func switchIfEmpty<P: Publisher>(_ other: P) -> String { "switchIfEmpty" }
    func take<P: Publisher>(until other: P, inclusive: Bool = false) -> String { "take(until:)" }
    func toggle() -> String { "toggle" }
    func withLatestFrom<P: Publisher>(_ other: P) -> String { "withLatestFrom" }
    func withLatestFrom<P: Publisher, R>(_ other: P, resultSelector: @escaping (Output, P.Output) -> R) -> String {
        "withLatestFrom(_:resultSelector:)"
    }
    func withUnretained<O: AnyObject>(_ object: O) -> String { "withUnretained" }
    func withUnretained<O: AnyObject, R>(_ object: O, resultSelector: @escaping (O, Output) -> R) -> String {
        "withUnretained(_:resultSelector:)"
    }
    func sink<O: AnyObject>(weak owner: O, _ receiveValue: @escaping (O, Output) -> Void) -> String { "sink(weak:_:)" }
    func sink<O: AnyObject>(weak owner: O, receiveValue: @escaping (O, Output) -> Void) -> String {
        "sink(weak:receiveValue:)"
    }
    func sink<O: AnyObject>(
        weak owner: O, receiveCompletion: @escaping (O, Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (O, Output) -> Void
    ) -> String {
        "sink(weak:receiveCompletion:receiveValue:)"
    }
    func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root, ownership: AssignOwnership
    ) -> String {
        "assign(to:on:ownership:)"
    }
}

extension AsyncSequence {
    var publisher: String { "publisher" }
}

private final class Owner {
    var value = 0
}

private struct Failed: Error {}

final class ExtrasNamesTests: XCTestCase {
    func testTopLevelNamesAreTheUsersOwn() {
        XCTAssertEqual(AssignOwnership.weak, .weak)
        XCTAssertEqual(CancellableBag().count, 0)
        XCTAssertEqual(CurrentValueRelay(value: 1).value, 1)
        if case .value(let value) = Event<Int, Never>.value(2) { XCTAssertEqual(value, 2) } else { XCTFail() }
        XCTAssertFalse(Lifetime().hasEnded)
        XCTAssertEqual(PassthroughRelay<Int>().accept(3), 3)
        XCTAssertEqual(ReplaySubject<Int, Never>(bufferSize: 4).bufferSize, 4)
        XCTAssertEqual(SubscriptionLedger.liveCount, -1)
        struct Own: Relay { typealias Output = Int }
        XCTAssertEqual(String(describing: Own.Output.self), "Int")
    }

    func testPublishersAndSubscribersNamesAreTheUsersOwn() {
        let names = [
            Publishers.Amb().name, Publishers.AmbMany().name, Publishers.AsyncMap().name,
            Publishers.AsyncSequencePublisher().name, Publishers.CombineLatestCollection().name,
            Publishers.DelayedRetry().name, Publishers.Dematerialize().name, Publishers.FlatMapFirst().name,
            Publishers.Materialize().name, Publishers.Observed().name, Publishers.SwitchIfEmpty().name,
            Publishers.TakeUntil().name, Publishers.TryAsyncMap().name, Publishers.WithLatestFrom().name,
            Publishers.ZipCollection().name, Subscribers.AsyncSink().name, AnyPublisher<Int, Never>.Emitter().name,
        ]
        XCTAssertEqual(names.count, Set(names).count)
        XCTAssertEqual(AnyPublisher<Int, Never>.create { _ in }, "create")
    }

    func testOperatorNamesAreTheUsersOwn() {
        let just = Just(1)
        let owner = Owner()
        let calls = [
            just.amb(Just(2)), just.amb(with: Just(2)), just.asyncMap { $0 }, just.tryAsyncMap { $0 },
            just.asyncSink(receiveCompletion: { _ in }, receiveValue: { _ in }), just.collectValues(),
            just.concatMap { Just($0) }, just.debug(), just.dematerialize(), just.enumerated(), just.firstValue,
            just.flatMapFirst { Just($0) }, just.flatMapLatest { Just($0) }, just.ignoreFailure(),
            just.mapToResult(), just.materialize(), just.nwise(2), just.pairwise(), just.partition { $0 > 0 },
            just.prefix(duration: .seconds(1), scheduler: ImmediateScheduler.shared),
            just.prefix(during: Lifetime()), Fail<Int, Failed>(error: Failed()).replaceEmpty(withError: Failed()),
            just.retry(1, delay: .seconds(1), scheduler: ImmediateScheduler.shared),
            Fail<Int, Failed>(error: Failed()).retry(when: { _ in Just(()) }, scheduler: ImmediateScheduler.shared),
            just.share(replay: 1),
            just.switchIfEmpty(Just(2)), just.take(until: Just(())), just.toggle(), just.withLatestFrom(Just(2)),
            just.withLatestFrom(Just(2)) { $0 + $1 }, just.withUnretained(owner),
            just.withUnretained(owner) { $1 }, just.sink(weak: owner, { _, _ in }),
            just.sink(weak: owner, receiveValue: { _, _ in }),
            just.sink(weak: owner, receiveCompletion: { _, _ in }, receiveValue: { _, _ in }),
            just.assign(to: \.value, on: owner, ownership: .weak),
            [just].amb(), [just].combineLatest(), [just].merge(), [just].zip(),
            AsyncStream<Int> { $0.finish() }.publisher,
        ]
        XCTAssertEqual(
            calls,
            [
                "amb", "amb(with:)", "asyncMap", "tryAsyncMap", "asyncSink", "collectValues", "concatMap", "debug",
                "dematerialize", "enumerated", "firstValue", "flatMapFirst", "flatMapLatest", "ignoreFailure",
                "mapToResult", "materialize", "nwise", "pairwise", "partition", "prefix(duration:)",
                "prefix(during:)", "replaceEmpty(withError:)", "retry(_:delay:)", "retry(when:)", "share(replay:)",
                "switchIfEmpty", "take(until:)", "toggle", "withLatestFrom", "withLatestFrom(_:resultSelector:)",
                "withUnretained", "withUnretained(_:resultSelector:)", "sink(weak:_:)", "sink(weak:receiveValue:)",
                "sink(weak:receiveCompletion:receiveValue:)", "assign(to:on:ownership:)", "amb", "combineLatest",
                "merge", "zip", "publisher",
            ])
    }

    func testStoreInTheUsersOwnContainers() {
        let bag = CancellableBag()
        AnyCancellable {}.store(in: bag)
        XCTAssertEqual(bag.count, 1)
        let future = Future<Int, Never>({ 5 }, tag: "own")
        var received: [Int] = []
        let expectation = expectation(description: "value")
        let cancellable = future.sink {
            received.append($0); expectation.fulfill()
        }
        wait(for: [expectation], timeout: 5)
        XCTAssertEqual(received, [5])
        _ = cancellable
    }
}
