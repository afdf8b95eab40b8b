import Dispatch
import Synchronization
import Tether
import TetherTesting
import XCTest

final class FlatMapTests: TetherTestCase {
    func testUpstreamIsAskedForMaxPublishersThenOneMoreAsEachInnerFinishes() {
        let outer = RecordingPublisher<Int, TestError>()
        let inners = (0..<3).map { _ in RecordingPublisher<Int, TestError>() }
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(10))
        outer.flatMap(maxPublishers: .max(2)) { inners[$0] }.subscribe(recorder)

        XCTAssertEqual(outer.subscription?.events, [.requested(.max(2))])
        outer.send(0)
        outer.send(1)
        XCTAssertEqual(inners[0].subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(inners[1].subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(inners[0].send(10), [.max(1)])
        XCTAssertEqual(inners[1].send(20), [.max(1)])
        inners[0].send(completion: .finished)
        XCTAssertEqual(outer.subscription?.events, [.requested(.max(2)), .requested(.max(1))])
        outer.send(2)
        XCTAssertEqual(inners[2].send(30), [.max(1)])
        outer.send(completion: .finished)
        inners[1].send(completion: .finished)
        XCTAssertNil(recorder.completion)
        inners[2].send(completion: .finished)

        XCTAssertEqual(
            recorder.events, [.subscription, .value(10), .value(20), .value(30), .completion(.finished)])
        XCTAssertEqual(outer.subscription?.events, [.requested(.max(2)), .requested(.max(1))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["FlatMap"])
    }

    func testValuesWithoutDemandWaitOnePerInnerAndInnersAreAskedAgainWhenTheyAreDelivered() {
        let outer = RecordingPublisher<Int, Never>()
        let inners = (0..<2).map { _ in RecordingPublisher<Int, Never>() }
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        outer.flatMap { inners[$0] }.subscribe(recorder)

        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited)])
        outer.send(0)
        outer.send(1)
        XCTAssertEqual(inners[1].send(2), [.none])
        XCTAssertEqual(inners[0].send(1), [.none])
        XCTAssertEqual(recorder.values, [])

        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [2])
        XCTAssertEqual(inners[1].subscription?.events, [.requested(.max(1)), .requested(.max(1))])
        XCTAssertEqual(inners[0].subscription?.events, [.requested(.max(1))])

        recorder.request(.max(5))
        XCTAssertEqual(recorder.values, [2, 1])
        XCTAssertEqual(inners[0].subscription?.events, [.requested(.max(1)), .requested(.max(1))])
        XCTAssertEqual(inners[0].send(3), [.max(1)])
        XCTAssertEqual(recorder.values, [2, 1, 3])
        recorder.cancel()
    }

    func testUnlimitedDownstreamDemandAsksEachInnerForUnlimited() {
        let outer = RecordingPublisher<Int, Never>()
        let inner = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        outer.flatMap { _ in inner }.subscribe(recorder)

        outer.send(0)
        XCTAssertEqual(inner.send(1), [.none])
        XCTAssertEqual(inner.send(2), [.none])
        XCTAssertEqual(inner.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.cancel()
    }

    func testAnInnerFailureCancelsTheOtherInnersLeavesTheUpstreamAndFails() {
        let outer = RecordingPublisher<Int, TestError>()
        let inners = (0..<2).map { _ in RecordingPublisher<Int, TestError>() }
        let recorder = RecordingSubscriber<Int, TestError>()
        outer.flatMap { inners[$0] }.subscribe(recorder)

        outer.send(0)
        outer.send(1)
        inners[1].send(completion: .failure(TestError(id: 4)))
        XCTAssertEqual(inners[0].send(5), [.none])
        inners[0].send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 4)))])
        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(inners[0].subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(inners[1].subscription?.events, [.requested(.unlimited)])
    }

    func testAnUpstreamFailureCancelsEveryInnerAndFails() {
        let outer = RecordingPublisher<Int, TestError>()
        let inner = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        outer.flatMap { _ in inner }.subscribe(recorder)

        outer.send(0)
        outer.send(completion: .failure(TestError(id: 9)))

        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 9)))])
        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(inner.subscription?.events, [.requested(.max(1)), .cancelled])
    }

    func testCancelCancelsUpstreamAndEveryInnerAndLaterSignalsAreIgnored() throws {
        let outer = RecordingPublisher<Int, Never>()
        let inners = (0..<2).map { _ in RecordingPublisher<Int, Never>() }
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(3))
        outer.flatMap(maxPublishers: .max(3)) { inners[$0] }.subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)

        outer.send(0)
        outer.send(1)
        subscription.cancel()
        subscription.cancel()
        subscription.request(.max(2))
        XCTAssertEqual(inners[0].send(1), [.none])
        outer.send(0)
        outer.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription])
        XCTAssertEqual(outer.subscription?.events, [.requested(.max(3)), .cancelled])
        XCTAssertEqual(inners[0].subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(inners[1].subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(inners[0].subscriptions.count, 1)
    }

    func testFinishWaitsForBufferedValuesAndTheLastInner() {
        let outer = RecordingPublisher<Int, Never>()
        let inner = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        outer.flatMap { _ in inner }.subscribe(recorder)

        outer.send(0)
        inner.send(7)
        inner.send(completion: .finished)
        outer.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])

        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
    }

    func testSynchronousInnersWithOnePublisherAtATimeConcatenate() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { _ in .max(1) })
        (0..<3).publisher.flatMap(maxPublishers: .max(1)) { [$0, $0 + 10].publisher }.subscribe(recorder)

        XCTAssertEqual(recorder.values, [0, 10, 1, 11, 2, 12])
        XCTAssertEqual(recorder.completion, .finished)
    }

    func testEveryFailureCombinationPicksCombinesReturnType() {
        let same: Publishers.FlatMap<Fail<Int, TestError>, Fail<Int, TestError>> =
            Fail<Int, TestError>(error: TestError(id: 1)).flatMap { _ in Fail<Int, TestError>(error: TestError(id: 2)) }
        let upstreamNever: Publishers.FlatMap<Fail<Int, TestError>, Publishers.SetFailureType<Just<Int>, TestError>> =
            Just(1).flatMap { _ in Fail<Int, TestError>(error: TestError(id: 3)) }
        let innerNever: Publishers.FlatMap<Publishers.SetFailureType<Just<Int>, TestError>, Fail<Int, TestError>> =
            Fail<Int, TestError>(error: TestError(id: 4)).flatMap { Just($0) }
        let bothNever: Publishers.FlatMap<Just<Int>, Just<Int>> = Just(5).flatMap(maxPublishers: .max(1)) {
            Just($0 * 2)
        }

        let first = RecordingSubscriber<Int, TestError>()
        same.subscribe(first)
        let second = RecordingSubscriber<Int, TestError>()
        upstreamNever.subscribe(second)
        let third = RecordingSubscriber<Int, TestError>()
        innerNever.subscribe(third)
        let fourth = RecordingSubscriber<Int, Never>()
        bothNever.subscribe(fourth)

        XCTAssertEqual(first.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(second.events, [.subscription, .completion(.failure(TestError(id: 3)))])
        XCTAssertEqual(third.events, [.subscription, .completion(.failure(TestError(id: 4)))])
        XCTAssertEqual(fourth.events, [.subscription, .value(10), .completion(.finished)])
        XCTAssertEqual(bothNever.maxPublishers, .max(1))
    }

    func testTheTransformAndEverythingItCapturedAreReleasedOnCancelAndOnCompletion() {
        weak var weakToken: Token?
        let outer = RecordingPublisher<Int, Never>()
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            outer.flatMap { _ in withExtendedLifetime(token) { Just(1) } }.subscribe(recorder)
            outer.send(0)
            XCTAssertEqual(recorder.values, [1])
            recorder.cancel()
        }
        XCTAssertNil(weakToken)
        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited), .cancelled])
        outer.releaseSubscribers()

        weak var weakCompletedToken: Token?
        let completing = RecordingPublisher<Int, Never>()
        do {
            let token = Token()
            weakCompletedToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            completing.flatMap { _ in withExtendedLifetime(token) { Just(1) } }.subscribe(recorder)
            completing.send(0)
            completing.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        }
        XCTAssertNil(weakCompletedToken)
        completing.releaseSubscribers()
    }

    func testAnInnerThatSubscribesAfterCancelIsCancelled() {
        let outer = RecordingPublisher<Int, Never>()
        let inner = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        outer.flatMap { _ in inner }.subscribe(recorder)
        outer.send(0)
        recorder.cancel()

        let late = RecordingSubscription()
        inner.subscriber?.receive(subscription: late)
        XCTAssertEqual(late.events, [.cancelled])
        inner.release()
    }

    func testDescriptionAndMirror() throws {
        let outer = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        outer.flatMap { Just($0) }.subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)
        XCTAssertEqual(String(describing: subscription), "FlatMap")
        XCTAssertEqual(Mirror(reflecting: subscription).children.count, 0)
        recorder.cancel()
    }
}

// MARK: - The seed: a `task` operator on flatMap(maxPublishers:) + Deferred + Future

extension Publisher where Output: Sendable {
    /// The article's operator: each value goes through an async transform, at most
    /// `maxPublishers` at once. Swift 6 asks for a `@Sendable` transform and `Sendable` values,
    /// which the article's Swift 5 code did not need.
    fileprivate func task<T: Sendable>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping @Sendable (Output) async -> T
    ) -> Publishers.FlatMap<Deferred<Future<T, Never>>, Self> {
        flatMap(maxPublishers: maxPublishers) { value in
            Deferred {
                Future { promise in
                    Task {
                        let output = await transform(value)
                        promise(.success(output))
                    }
                }
            }
        }
    }
}

extension Publisher where Self.Failure == Never {
    fileprivate func emptySink() -> AnyCancellable {
        sink(receiveValue: { _ in })
    }
}

/// What the seed's async work saw, in order.
private final class SeedLog: Sendable {
    private let entries = Mutex<[String]>([])
    private let running = Atomic<Int>(0)
    private let overlaps = Atomic<Int>(0)

    var lines: [String] { entries.withLock { $0 } }
    var overlapCount: Int { overlaps.load(ordering: .sequentiallyConsistent) }

    func process(_ value: String) async -> String {
        if running.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
            overlaps.add(1, ordering: .sequentiallyConsistent)
        }
        entries.withLock { $0.append("start \(value)") }
        try? await Task.sleep(nanoseconds: 20_000_000)
        entries.withLock { $0.append("end \(value)") }
        running.subtract(1, ordering: .sequentiallyConsistent)
        return value.uppercased()
    }
}

final class FlatMapSeedTests: TetherTestCase {
    func testTheArticlesTaskOperatorProcessesOneValueAtATimeInOrder() {
        let log = SeedLog()
        let finished = expectation(description: "finished")
        let received = Mutex<[String]>([])
        let cancellable = ["abc", "sdg", "353"].publisher
            .task(maxPublishers: .max(1)) { value in await log.process(value) }
            .sink(
                receiveCompletion: { _ in finished.fulfill() },
                receiveValue: { value in received.withLock { $0.append(value) } })
        wait(for: [finished], timeout: 5)

        XCTAssertEqual(log.lines, ["start abc", "end abc", "start sdg", "end sdg", "start 353", "end 353"])
        XCTAssertEqual(received.withLock { $0 }, ["ABC", "SDG", "353"])
        XCTAssertEqual(log.overlapCount, 0)
        cancellable.cancel()
    }

    func testTheArticlesEmptySinkRunsTheTasks() {
        let log = SeedLog()
        var cancellables = Set<AnyCancellable>()
        ["abc", "sdg"].publisher
            .task(maxPublishers: .max(1)) { value in await log.process(value) }
            .emptySink()
            .store(in: &cancellables)
        let deadline = DispatchTime.now() + 5
        while log.lines.count < 4 && DispatchTime.now() < deadline { usleep(1_000) }

        XCTAssertEqual(log.lines, ["start abc", "end abc", "start sdg", "end sdg"])
        cancellables.removeAll()
    }

    func testFuturesFulfilledFromAnotherQueueKeepOrderWithOnePublisherAtATime() {
        let queue = DispatchQueue(label: "seed.fulfil")
        let finished = expectation(description: "finished")
        let received = Mutex<[Int]>([])
        let cancellable = (0..<20).publisher
            .flatMap(maxPublishers: .max(1)) { value in
                Deferred {
                    Future<Int, Never> { promise in
                        queue.asyncAfter(deadline: .now() + .milliseconds(value % 3)) { promise(.success(value)) }
                    }
                }
            }
            .sink(
                receiveCompletion: { _ in finished.fulfill() },
                receiveValue: { value in received.withLock { $0.append(value) } })
        wait(for: [finished], timeout: 5)

        XCTAssertEqual(received.withLock { $0 }, Array(0..<20))
        cancellable.cancel()
    }
}
