import Tether
import TetherTesting
import XCTest

private struct Point {
    var x: Int
    var y: Int
    var label: String
}

final class MapKeyPathTests: TetherTestCase {
    func testOneKeyPathPublishesThatProperty() {
        let publisher = RecordingPublisher<Point, TestError>()
        let mapped: Publishers.MapKeyPath<RecordingPublisher<Point, TestError>, Int> = publisher.map(\.x)
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1), demandPerValue: { _ in .max(2) })
        mapped.subscribe(recorder)

        XCTAssertEqual(publisher.send(Point(x: 1, y: 2, label: "a")), [.max(2)])
        publisher.send(completion: .failure(TestError(id: 4)))

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(TestError(id: 4)))])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["RecordingSubscription"])
    }

    func testTwoAndThreeKeyPathsPublishTuples() {
        let publisher = RecordingPublisher<Point, Never>()
        let two: Publishers.MapKeyPath2<RecordingPublisher<Point, Never>, Int, String> = publisher.map(\.y, \.label)
        let three: Publishers.MapKeyPath3<RecordingPublisher<Point, Never>, String, Int, Int> =
            publisher.map(\.label, \.x, \.y)
        let pairs = RecordingSubscriber<(Int, String), Never>()
        let triples = RecordingSubscriber<(String, Int, Int), Never>()
        two.subscribe(pairs)
        three.subscribe(triples)

        publisher.send(Point(x: 1, y: 2, label: "p"))
        publisher.send(completion: .finished)

        XCTAssertEqual(pairs.history, [".subscription", #".value((2, "p"))"#, ".completion(.finished)"])
        XCTAssertEqual(triples.history, [".subscription", #".value(("p", 1, 2))"#, ".completion(.finished)"])
        XCTAssertEqual(publisher.subscriptions.map(\.events), [[.requested(.unlimited)], [.requested(.unlimited)]])
    }

    func testRelaysDescribeThemselvesAsCombineDoes() {
        let one = DescribingPublisher<Point, Never>()
        one.map(\.x).subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(one.seen.description, "ValueForKey")
        XCTAssertEqual(one.seen.mirrorLabels, ["keyPath"])

        let two = DescribingPublisher<Point, Never>()
        two.map(\.x, \.y).subscribe(RecordingSubscriber<(Int, Int), Never>())
        XCTAssertEqual(two.seen.description, "ValueForKeys")
        XCTAssertEqual(two.seen.mirrorLabels, ["keyPath0", "keyPath1"])

        let three = DescribingPublisher<Point, Never>()
        three.map(\.x, \.y, \.label).subscribe(RecordingSubscriber<(Int, Int, String), Never>())
        XCTAssertEqual(three.seen.description, "ValueForKeys")
        XCTAssertEqual(three.seen.mirrorLabels, ["keyPath0", "keyPath1", "keyPath2"])
    }

    func testCancelReachesTheUpstream() {
        let publisher = RecordingPublisher<Point, Never>()
        let recorder = RecordingSubscriber<(Int, Int, String), Never>()
        publisher.map(\.x, \.y, \.label).subscribe(recorder)
        recorder.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }
}
