import Tether
import TetherTesting
import XCTest

/// A run of `map`, `filter` and `compactMap` operators subscribes as one relay whose closure is
/// theirs composed (see `Publisher._receive(subscriber:map:)`); what goes in and out must be
/// what the operators one inside the other would do.
final class RelayFusionTests: TetherTestCase {
    func testARunDeliversWhatTheOperatorsOneByOneWould() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<String, TestError>(demand: .max(2))
        publisher
            .map { $0 + 1 }
            .filter { $0.isMultiple(of: 2) }
            .compactMap { $0 > 10 ? nil : $0 * 10 }
            .map { "<\($0)>" }
            .filter { $0 != "<40>" }
            .subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.max(1)], "odd after the first map")
        XCTAssertEqual(publisher.send(11), [.max(1)], "dropped by the compactMap")
        XCTAssertEqual(publisher.send(3), [.max(1)], "dropped by the last filter")
        XCTAssertEqual(publisher.send(5), [.none])
        publisher.send(completion: .failure(TestError(id: 7)))

        XCTAssertEqual(
            recorder.events,
            [.subscription, .value("<20>"), .value("<60>"), .completion(.failure(TestError(id: 7)))])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2))])
    }

    func testTheOperatorsRunInOrderOncePerValue() {
        var log: [String] = []
        let recorder = RecordingSubscriber<Int, Never>()
        // Erased: `Publishers.Sequence` has eager `map`, `filter` and `compactMap` of its own.
        [1, 2].publisher.eraseToAnyPublisher()
            .map { value -> Int in log.append("map \(value)"); return value * 3 }
            .filter { value in log.append("filter \(value)"); return true }
            .compactMap { value -> Int? in log.append("compactMap \(value)"); return value + 1 }
            .subscribe(recorder)

        XCTAssertEqual(
            log, ["map 1", "filter 3", "compactMap 3", "map 2", "filter 6", "compactMap 6"])
        XCTAssertEqual(recorder.events, [.subscription, .value(4), .value(7), .completion(.finished)])
    }

    func testTheSubscriptionIsTheUpstreamsOwn() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        publisher.filter { $0 > 0 }.map { $0 * 2 }.filter { $0 < 100 }.subscribe(recorder)

        XCTAssertEqual(recorder.subscriptionDescriptions, ["RecordingSubscription"])
        recorder.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testARunIsOneSubscriberNamedAfterWhatItDoes() {
        let mapped = DescribingPublisher<Int, Never>()
        mapped.map { $0 + 1 }.map { $0 * 2 }.subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(mapped.seen.description, "Map")

        let filtered = DescribingPublisher<Int, Never>()
        filtered.filter { $0 > 1 }.filter { $0 < 9 }.subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(filtered.seen.description, "Filter")

        let mixed = DescribingPublisher<Int, Never>()
        mixed.map { $0 + 1 }.filter { $0 > 1 }.map { "\($0)" }.subscribe(RecordingSubscriber<String, Never>())
        XCTAssertEqual(mixed.seen.description, "CompactMap")
        XCTAssertEqual(mixed.seen.mirrorLabels, [])
    }

    func testAnotherOperatorBetweenEndsTheRun() {
        let publisher = DescribingPublisher<Int, Never>()
        var seen: [Int] = []
        let recorder = RecordingSubscriber<Int, Never>()
        publisher
            .map { $0 + 1 }
            .handleEvents(receiveOutput: { seen.append($0) })
            .filter { $0 > 1 }
            .subscribe(recorder)

        XCTAssertEqual(publisher.seen.description, "Map")
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])

        let values = RecordingSubscriber<Int, Never>()
        [0, 1, 2].publisher.eraseToAnyPublisher()
            .map { $0 + 1 }
            .handleEvents(receiveOutput: { seen.append($0) })
            .filter { $0 > 1 }
            .subscribe(values)
        XCTAssertEqual(seen, [1, 2, 3])
        XCTAssertEqual(values.events, [.subscription, .value(2), .value(3), .completion(.finished)])
    }

    func testARunLetsGoOfEveryClosureWithTheSubscription() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakFirst: Token?
        weak var weakLast: Token?
        let recorder = RecordingSubscriber<Int, Never>()
        do {
            let first = Token()
            let last = Token()
            weakFirst = first
            weakLast = last
            subject
                .map { [first] in _ = first; return $0 + 1 }
                .filter { _ in true }
                .compactMap { [last] in _ = last; return $0 }
                .subscribe(recorder)
        }
        subject.send(1)
        XCTAssertNotNil(weakFirst)
        XCTAssertNotNil(weakLast)
        recorder.cancel()
        XCTAssertNil(weakFirst)
        XCTAssertNil(weakLast)
        XCTAssertEqual(recorder.events, [.subscription, .value(2)])
    }

    func testAPublisherStaysUsableAfterAnOperatorTakesIt() {
        let upstream = [1, 2, 3].publisher.eraseToAnyPublisher()
        let doubled = upstream.map { $0 * 2 }
        let odd = upstream.filter { !$0.isMultiple(of: 2) }
        let parsed = upstream.compactMap { $0 == 2 ? nil : $0 }
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        let third = RecordingSubscriber<Int, Never>()
        doubled.subscribe(first)
        odd.subscribe(second)
        parsed.subscribe(third)
        XCTAssertEqual(first.events, [.subscription, .value(2), .value(4), .value(6), .completion(.finished)])
        XCTAssertEqual(second.events, [.subscription, .value(1), .value(3), .completion(.finished)])
        XCTAssertEqual(third.events, [.subscription, .value(1), .value(3), .completion(.finished)])
    }
}
