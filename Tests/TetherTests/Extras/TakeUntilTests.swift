import Tether
import TetherTesting
import XCTest

final class TakeUntilTests: TetherTestCase {
    func testExclusiveFinishesWithoutTheMatchingValue() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.take(until: { $0 > 2 }).subscribe(recorder)
        for value in 1...4 { _ = upstream.send(value) }
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TakeUntil"])
        upstream.releaseSubscribers()
    }

    func testInclusiveDeliversTheMatchingValueThenFinishes() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.take(until: { $0 > 2 }, inclusive: true).subscribe(recorder)
        for value in 1...4 { _ = upstream.send(value) }
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testDemandPassesThroughAndFailuresBeforeTheMatchPassThrough() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2), demandPerValue: { _ in .max(1) })
        upstream.take(until: { $0 > 5 }, inclusive: true).subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(upstream.send(1), [.max(1)])
        upstream.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(TestError(id: 1)))])
        upstream.releaseSubscribers()
    }

    func testAnUpstreamFinishingFirstFinishes() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2].publisher.take(until: { $0 > 5 }, inclusive: true).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testEverythingIsReleasedAfterCancelAndAfterTheMatch() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            upstream.take(until: { $0 > capture.id }).subscribe(recorder)
            upstream.send(0)
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription, .value(0)])
        }
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            upstream.take(until: { $0 > capture.id }, inclusive: true).subscribe(recorder)
            upstream.send(1)
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        }
    }
}
