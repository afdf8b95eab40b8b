import Tether
import TetherTesting
import XCTest

final class CompactMapTests: TetherTestCase {
    func testNilResultsAreCompensatedWithDemandOfOne() {
        let publisher = RecordingPublisher<String, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        publisher.compactMap { Int($0) }.subscribe(recorder)

        XCTAssertEqual(publisher.send("a"), [.max(1)])
        XCTAssertEqual(publisher.send("b"), [.max(1)])
        XCTAssertEqual(publisher.send("1"), [.none])
        recorder.request(.max(1))
        XCTAssertEqual(publisher.send("2"), [.none])
        publisher.send(completion: .failure(TestError(id: 3)))

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 3)))])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .requested(.max(1))])
    }

    func testPassesTheUpstreamSubscriptionThrough() {
        let publisher = RecordingPublisher<String, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        publisher.compactMap { Int($0) }.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionDescriptions, ["RecordingSubscription"])
        recorder.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testRelayDescribesItselfAsCompactMap() {
        let publisher = DescribingPublisher<String, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        publisher.compactMap { Int($0) }.subscribe(recorder)
        XCTAssertEqual(publisher.seen.description, "CompactMap")
        XCTAssertEqual(publisher.seen.mirrorLabels, [])
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testCompactMapAndMapFuseIntoOneCompactMap() {
        let publisher = RecordingPublisher<String, Never>()
        let compacted: Publishers.CompactMap<RecordingPublisher<String, Never>, Int> =
            publisher
            .compactMap { Int($0) }
            .compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        let fused: Publishers.CompactMap<RecordingPublisher<String, Never>, String> =
            compacted
            .map { "<\($0)>" }
        XCTAssertTrue(fused.upstream === publisher)
        let recorder = RecordingSubscriber<String, Never>()
        fused.subscribe(recorder)

        XCTAssertEqual(publisher.send("0"), [.none])
        XCTAssertEqual(publisher.send("3"), [.max(1)])
        XCTAssertEqual(publisher.send("a"), [.max(1)])
        XCTAssertEqual(publisher.send("12"), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value("<0>"), .value("<6>"), .completion(.finished)])
    }

    func testReleasesTheClosureOnceTheUpstreamLetsGoAfterCompletion() {
        let subject = PassthroughSubject<String, Never>()
        weak var weakToken: Token?
        let recorder = RecordingSubscriber<Int, Never>()
        do {
            let token = Token()
            weakToken = token
            subject.compactMap { [token] in
                _ = token; return Int($0)
            }.subscribe(recorder)
        }
        subject.send("5")
        XCTAssertNotNil(weakToken)
        subject.send(completion: .finished)
        XCTAssertNil(weakToken)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
    }
}
