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

    func testEveryKindOfKeyPathReadsWhatTheKeyPathNames() {
        let creator = KeyPathOwner(name: "creator")
        var owner: KeyPathOwner? = KeyPathOwner(name: "owner")
        let publisher = PassthroughSubject<KeyPathRow, Never>()
        let ids = RecordingSubscriber<Int, Never>()
        let heights = RecordingSubscriber<Double, Never>()
        let owners = RecordingSubscriber<String?, Never>()
        let creators = RecordingSubscriber<String, Never>()
        let areas = RecordingSubscriber<Double, Never>()
        let details = RecordingSubscriber<Double?, Never>()
        let triples = RecordingSubscriber<(Double, String, Int), Never>()
        publisher.map(\.id).subscribe(ids)
        publisher.map(\.size.height).subscribe(heights)
        publisher.map(\.owner).map { $0?.name }.subscribe(owners)
        publisher.map(\.creator).map(\.name).subscribe(creators)
        publisher.map(\.area).subscribe(areas)
        publisher.map(\.detail?.width).subscribe(details)
        publisher.map(\.size.width, \.title, \.id).subscribe(triples)

        let size = KeyPathRow.Size(width: 2, height: 3)
        publisher.send(KeyPathRow(id: 1, size: size, title: "a", owner: owner, creator: creator, detail: nil))
        owner = nil
        publisher.send(
            KeyPathRow(
                id: 2, size: KeyPathRow.Size(width: 4, height: 5), title: "b", owner: owner, creator: creator,
                detail: size))
        publisher.send(completion: .finished)

        XCTAssertEqual(ids.history, [".subscription", ".value(1)", ".value(2)", ".completion(.finished)"])
        XCTAssertEqual(heights.history, [".subscription", ".value(3.0)", ".value(5.0)", ".completion(.finished)"])
        XCTAssertEqual(
            owners.history, [".subscription", #".value(Optional("owner"))"#, ".value(nil)", ".completion(.finished)"])
        XCTAssertEqual(
            creators.history, [".subscription", ".value(creator)", ".value(creator)", ".completion(.finished)"])
        XCTAssertEqual(areas.history, [".subscription", ".value(6.0)", ".value(20.0)", ".completion(.finished)"])
        XCTAssertEqual(
            details.history, [".subscription", ".value(nil)", ".value(Optional(2.0))", ".completion(.finished)"])
        XCTAssertEqual(
            triples.history,
            [".subscription", #".value((2.0, "a", 1))"#, #".value((4.0, "b", 2))"#, ".completion(.finished)"])
    }

    func testAKeyPathOnAClassReadsTheObjectAsItIsWhenTheValueComes() {
        final class Counter {
            var count = 0
        }
        let counter = Counter()
        let publisher = PassthroughSubject<Counter, Never>()
        let counts = RecordingSubscriber<Int, Never>()
        publisher.map(\.count).subscribe(counts)
        publisher.send(counter)
        counter.count = 7
        publisher.send(counter)
        publisher.send(completion: .finished)
        XCTAssertEqual(counts.history, [".subscription", ".value(0)", ".value(7)", ".completion(.finished)"])
    }
}
