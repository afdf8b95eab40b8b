import Tether
import TetherTesting
import XCTest

final class ScanAndDuplicatesTests: TetherTestCase {
    func testScanPublishesEveryPartialResultAndPassesDemandThrough() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(
            demand: .max(2), demandPerValue: { $0 == 1 ? .max(1) : .none })
        publisher.scan(0, +).subscribe(recorder)
        XCTAssertEqual(publisher.send(1), [.max(1)])
        XCTAssertEqual(publisher.send(2), [.none])
        publisher.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3), .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2))])
        publisher.releaseSubscribers()
    }

    func testEachScanSubscriptionStartsFromTheInitialResult() {
        let scan = [1, 2, 3].publisher.scan(10, +)
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        scan.subscribe(first)
        scan.subscribe(second)
        XCTAssertEqual(first.values, [11, 13, 16])
        XCTAssertEqual(second.values, [11, 13, 16])
    }

    func testScanRelayDescribesItselfAsScan() {
        let publisher = DescribingPublisher<Int, Never>()
        publisher.scan(0, +).subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(publisher.seen.description, "Scan")
        XCTAssertEqual(publisher.seen.mirrorLabels, ["downstream", "result"])
    }

    func testTryScanThrowCancelsUpstreamAndFailsDownstreamOnceValuesStillGoThrough() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryScan(0) { sum, value in
            if value < 0 { throw TestError(id: value) }
            return sum + value
        }.subscribe(recorder)
        publisher.send(2)
        publisher.send(-1)
        publisher.send(5)
        publisher.send(-3)
        publisher.send(completion: .finished)
        XCTAssertEqual(
            recorder.history, [".subscription", ".value(2)", ".completion(.failure(TestError(-1)))", ".value(7)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryScan"])
        publisher.releaseSubscribers()
    }

    func testTryScanHoldsDownstreamAndClosureAfterCancelForTheRelaysLife() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, any Error>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, any Error>()
            weakRecorder = recorder
            publisher.tryScan(0) { [token] in
                _ = token; return $0 + $1
            }.subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNotNil(weakToken, "values after the cancel still go through the closure")
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
        XCTAssertNil(weakToken)
    }

    func testRemoveDuplicatesComparesWithThePreviousElementAndCompensatesDemand() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(3))
        publisher.removeDuplicates { abs($0 - $1) <= 1 }.subscribe(recorder)
        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.max(1)])
        XCTAssertEqual(publisher.send(3), [.max(1)])
        XCTAssertEqual(publisher.send(9), [.none])
        publisher.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(9), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(3))])
        publisher.releaseSubscribers()
    }

    func testRemoveDuplicatesOfEquatableElements() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 1, 2, 2, 2, 1].publisher.removeDuplicates().subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 1])
        let relay = DescribingPublisher<Int, Never>()
        relay.removeDuplicates().subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(relay.seen.description, "RemoveDuplicates")
    }

    func testRemoveDuplicatesSendsItsOwnSubscriptionAndCancelsASecondOne() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        publisher.removeDuplicates().subscribe(recorder)
        let first = RecordingSubscription(), second = RecordingSubscription()
        publisher.subscriber?.receive(subscription: first)
        publisher.subscriber?.receive(subscription: second)
        XCTAssertEqual(publisher.subscriber?.receive(1), Subscribers.Demand.none)
        XCTAssertEqual(publisher.subscriber?.receive(1), .max(1))
        recorder.cancel()
        recorder.cancel()
        XCTAssertEqual(publisher.subscriber?.receive(2), Subscribers.Demand.none)
        publisher.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["RemoveDuplicates"])
        XCTAssertEqual(first.events, [.requested(.max(2)), .cancelled])
        XCTAssertEqual(second.events, [.cancelled])
        publisher.release()
    }

    func testRemoveDuplicatesCancelledBeforeItsSubscriptionCancelsItOnArrival() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        publisher.removeDuplicates().subscribe(recorder)
        (publisher.given as? any Subscription)?.cancel()
        let subscription = RecordingSubscription()
        publisher.subscriber?.receive(subscription: subscription)
        XCTAssertEqual(subscription.events, [.cancelled])
        XCTAssertEqual(recorder.events, [])
        publisher.release()
    }

    func testRemoveDuplicatesMirrorsItsDownstreamAndLastElement() {
        let relay = DescribingPublisher<Int, Never>()
        relay.removeDuplicates().subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(relay.seen.mirrorLabels, ["downstream", "last"])
        let tryRelay = DescribingPublisher<Int, Never>()
        tryRelay.tryRemoveDuplicates(by: ==).subscribe(RecordingSubscriber<Int, any Error>())
        XCTAssertEqual(tryRelay.seen.description, "TryRemoveDuplicates")
        XCTAssertEqual(tryRelay.seen.mirrorLabels, ["downstream", "last"])
    }

    func testRemoveDuplicatesHoldsItsSubscriberUntilTheSubscriptionGoes() {
        let publisher = RecordingPublisher<Int, TestError>()
        weak var weakRecorder: RecordingSubscriber<Int, TestError>?
        do {
            let recorder = RecordingSubscriber<Int, TestError>()
            weakRecorder = recorder
            publisher.removeDuplicates().subscribe(recorder)
            publisher.send(completion: .failure(TestError(id: 1)))
            XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testTryRemoveDuplicatesThrowCancelsUpstreamAndFails() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryRemoveDuplicates { previous, next in
            if next == 0 { throw TestError(id: previous) }
            return previous == next
        }.subscribe(recorder)
        XCTAssertEqual(publisher.send(4), [.none])
        XCTAssertEqual(publisher.send(4), [.max(1)])
        XCTAssertEqual(publisher.send(0), [.none])
        publisher.send(7)
        XCTAssertEqual(recorder.history, [".subscription", ".value(4)", ".completion(.failure(TestError(4)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryRemoveDuplicates"])
        publisher.releaseSubscribers()
    }

    func testMapErrorTransformsOnlyTheFailure() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        publisher.mapError { TestError(id: $0.id * 10) }.subscribe(recorder)
        XCTAssertEqual(publisher.send(1), [.none])
        publisher.send(completion: .failure(TestError(id: 4)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(TestError(id: 40)))])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
        let relay = DescribingPublisher<Int, TestError>()
        Publishers.MapError(upstream: relay, transform: { $0 }).subscribe(RecordingSubscriber<Int, TestError>())
        XCTAssertEqual(relay.seen.description, "MapError")
        publisher.releaseSubscribers()
    }

    func testSetFailureTypeRelaysEverythingAndRefusesToStack() {
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2))
        let typed: Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, TestError> = [1, 2, 3].publisher
            .setFailureType(to: Error.self).setFailureType(to: TestError.self)
        typed.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        recorder.cancel()
        let relay = DescribingPublisher<Int, Never>()
        relay.setFailureType(to: TestError.self).subscribe(RecordingSubscriber<Int, TestError>())
        XCTAssertEqual(relay.seen.description, "SetFailureType")
    }

    func testReplaceNilIsAMap() {
        let recorder = RecordingSubscriber<Double, Never>()
        let replaced: Publishers.Map<Publishers.Sequence<[Double?], Never>, Double> = [1.0, nil, 3.0].publisher
            .replaceNil(with: 0.0)
        replaced.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1.0, 0.0, 3.0])
    }

    func testIgnoreOutputRequestsUnlimitedAtOnceAndPassesTheCompletion() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Never, TestError>(demand: .none)
        publisher.ignoreOutput().subscribe(recorder)
        XCTAssertEqual(publisher.send(1), [.none])
        publisher.send(completion: .failure(TestError(id: 2)))
        XCTAssertEqual(recorder.events.map(\.description), [".subscription", ".completion(.failure(TestError(2)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        let relay = DescribingPublisher<Int, Never>()
        relay.ignoreOutput().subscribe(RecordingSubscriber<Never, Never>())
        XCTAssertEqual(relay.seen.description, "IgnoreOutput")
        publisher.releaseSubscribers()
    }
}
