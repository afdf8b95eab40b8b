import Tether
import TetherTesting
import XCTest

final class FlatMapFirstTests: TetherTestCase {
    func testValuesArrivingWhileAnInnerIsActiveAreDropped() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inners = [PassthroughSubject<String, TestError>(), PassthroughSubject<String, TestError>()]
        var made: [Int] = []
        let recorder = RecordingSubscriber<String, TestError>()
        upstream.flatMapFirst { value -> PassthroughSubject<String, TestError> in
            made.append(value)
            return inners[made.count - 1]
        }.subscribe(recorder)
        upstream.send(1)
        inners[0].send("a")
        upstream.send(2)
        upstream.send(3)
        inners[0].send("b")
        inners[0].send(completion: .finished)
        upstream.send(4)
        inners[1].send("c")
        upstream.send(completion: .finished)
        inners[1].send("d")
        inners[1].send(completion: .finished)
        XCTAssertEqual(made, [1, 4])
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value("a"), .value("b"), .value("c"), .value("d"), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["FlatMapFirst"])
    }

    func testUpstreamFinishingWithNoActiveInnerFinishesAtOnce() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2, 3].publisher.flatMapFirst { Just($0 * 10) }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(10), .value(20), .value(30), .completion(.finished)])
    }

    func testUpstreamIsAskedForUnlimitedAndDemandGoesToTheInner() {
        let upstream = RecordingPublisher<Int, Never>()
        let first = RecordingPublisher<Int, Never>()
        let second = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(3))
        upstream.flatMapFirst { $0 == 1 ? first : second }.subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(upstream.send(1), [.none])
        XCTAssertEqual(first.subscription?.events, [.requested(.max(3))])
        XCTAssertEqual(first.send(10), [.none])
        XCTAssertEqual(upstream.send(2), [.none])
        recorder.request(.max(2))
        XCTAssertEqual(first.subscription?.events, [.requested(.max(3)), .requested(.max(2))])
        first.send(completion: .finished)
        // The unmet demand: 3 + 2 - 1.
        XCTAssertEqual(upstream.send(2), [.none])
        XCTAssertEqual(second.subscription?.events, [.requested(.max(4))])
        recorder.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(second.subscription?.events, [.requested(.max(4)), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription, .value(10)])
        for publisher in [upstream, first, second] { publisher.releaseSubscribers() }
    }

    func testDemandReturnedByTheDownstreamGoesToTheInner() {
        let inner = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { _ in .max(1) })
        Just(0).flatMapFirst { _ in inner }.subscribe(recorder)
        XCTAssertEqual(inner.send(1), [.max(1)])
        XCTAssertEqual(inner.send(2), [.max(1)])
        inner.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        inner.releaseSubscribers()
    }

    func testInnerFailureCancelsTheUpstreamAndFails() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.flatMapFirst { _ in Fail<Int, TestError>(error: TestError(id: 1)) }.subscribe(recorder)
        _ = upstream.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testUpstreamFailureCancelsTheInnerAndFails() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.flatMapFirst { _ in inner }.subscribe(recorder)
        upstream.send(1)
        _ = inner.send(5)
        upstream.send(completion: .failure(TestError(id: 2)))
        _ = inner.send(6)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.failure(TestError(id: 2)))])
        XCTAssertEqual(inner.subscription?.events, [.requested(.unlimited), .cancelled])
        inner.releaseSubscribers()
    }

    func testUpstreamFailureDuringADeliveryComesRightAfterIt() {
        let upstream = PassthroughSubject<Int, TestError>()
        let inner = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        let relay = AnySubscriber<Int, TestError>(
            receiveSubscription: { recorder.receive(subscription: $0) },
            receiveValue: { value in
                upstream.send(completion: .failure(TestError(id: 3)))
                XCTAssertEqual(recorder.events, [.subscription])
                return recorder.receive(value)
            },
            receiveCompletion: { recorder.receive(completion: $0) })
        upstream.flatMapFirst { _ in inner }.subscribe(relay)
        upstream.send(1)
        inner.send(7)
        inner.send(8)
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.failure(TestError(id: 3)))])
    }

    func testNeverFailingOverloadsSetTheFailureType() {
        let failing = RecordingSubscriber<Int, TestError>()
        Just(1).flatMapFirst { Fail<Int, TestError>(error: TestError(id: $0)) }.subscribe(failing)
        XCTAssertEqual(failing.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        let succeeding = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 2)).flatMapFirst { Just($0) }.subscribe(succeeding)
        XCTAssertEqual(succeeding.events, [.subscription, .completion(.failure(TestError(id: 2)))])
        let neither = RecordingSubscriber<Int, Never>()
        Just(3).flatMapFirst { Just($0) }.subscribe(neither)
        XCTAssertEqual(neither.events, [.subscription, .value(3), .completion(.finished)])
    }

    func testEverythingIsReleasedAfterCancel() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            let inner = PassthroughSubject<Int, Never>()
            upstream.flatMapFirst { value in inner.map { $0 + value + capture.id } }.subscribe(recorder)
            upstream.send(1)
            inner.send(1)
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription, .value(2)])
        }
    }

    func testEverythingIsReleasedAfterCompletion() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            upstream.flatMapFirst { Just($0 + capture.id) }.subscribe(recorder)
            upstream.send(1)
            upstream.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        }
    }

    func testNeverFailingOverloadsOfFlatMapLatestAndConcatMap() {
        let latest = RecordingSubscriber<Int, TestError>()
        [1, 2].publisher.flatMapLatest { Fail<Int, TestError>(error: TestError(id: $0)) }.subscribe(latest)
        XCTAssertEqual(latest.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        let latestNever = RecordingSubscriber<Int, Never>()
        [1, 2].publisher.flatMapLatest { Just($0) }.subscribe(latestNever)
        XCTAssertEqual(latestNever.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        let latestInnerNever = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 3)).flatMapLatest { Just($0) }.subscribe(latestInnerNever)
        XCTAssertEqual(latestInnerNever.events, [.subscription, .completion(.failure(TestError(id: 3)))])
        let concat = RecordingSubscriber<Int, TestError>()
        [1, 2].publisher.concatMap { Fail<Int, TestError>(error: TestError(id: $0)) }.subscribe(concat)
        XCTAssertEqual(concat.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        let concatNever = RecordingSubscriber<Int, Never>()
        [1, 2].publisher.concatMap { [$0, $0].publisher }.subscribe(concatNever)
        XCTAssertEqual(
            concatNever.events, [.subscription, .value(1), .value(1), .value(2), .value(2), .completion(.finished)])
        let concatInnerNever = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 4)).concatMap { Just($0) }.subscribe(concatInnerNever)
        XCTAssertEqual(concatInnerNever.events, [.subscription, .completion(.failure(TestError(id: 4)))])
    }
}
