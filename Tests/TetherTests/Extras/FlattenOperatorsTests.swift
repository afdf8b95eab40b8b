import Tether
import TetherTesting
import XCTest

final class FlattenOperatorsTests: TetherTestCase {
    func testFlatMapLatestRepublishesOnlyTheMostRecentInnerPublisher() {
        let upstream = PassthroughSubject<String, TestError>()
        let inners = ["a": PassthroughSubject<Int, TestError>(), "b": PassthroughSubject<Int, TestError>()]
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.flatMapLatest { inners[$0]! }.subscribe(recorder)
        upstream.send("a")
        inners["a"]!.send(1)
        upstream.send("b")
        inners["a"]!.send(2)
        inners["b"]!.send(3)
        upstream.send(completion: .finished)
        inners["b"]!.send(4)
        inners["b"]!.send(completion: .finished)
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(3), .value(4), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["SwitchToLatest"])
    }

    func testFlatMapLatestInnerFailureFailsTheStreamAndCancelsTheUpstream() {
        let upstream = RecordingPublisher<Int, TestError>()
        let inner = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.flatMapLatest { _ in inner }.subscribe(recorder)
        XCTAssertEqual(upstream.send(1), [.none])
        inner.send(10)
        inner.send(completion: .failure(TestError(id: 3)))
        XCTAssertEqual(recorder.events, [.subscription, .value(10), .completion(.failure(TestError(id: 3)))])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testFlatMapLatestPassesDownstreamDemandToTheInnerPublisher() {
        let upstream = PassthroughSubject<Int, Never>()
        let inner = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.flatMapLatest { _ in inner }.subscribe(recorder)
        upstream.send(1)
        XCTAssertEqual(inner.subscription?.events, [.requested(.max(2))])
        recorder.cancel()
        XCTAssertEqual(inner.subscription?.events, [.requested(.max(2)), .cancelled])
        inner.releaseSubscribers()
    }

    func testConcatMapSubscribesTheInnerPublishersOneAfterTheOther() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2, 3].publisher.concatMap { value in [value * 10, value * 10 + 1].publisher }.subscribe(recorder)
        XCTAssertEqual(
            recorder.events,
            [
                .subscription, .value(10), .value(11), .value(20), .value(21), .value(30), .value(31),
                .completion(.finished),
            ])
    }

    func testConcatMapAsksForTheNextValueOnlyWhenTheInnerPublisherFinishes() {
        let upstream = RecordingPublisher<Int, TestError>()
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.concatMap { $0 == 1 ? first : second }.subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        _ = upstream.send(1)
        first.send(1)
        second.send(99)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        first.send(completion: .finished)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .requested(.max(1))])
        _ = upstream.send(2)
        second.send(2)
        upstream.send(completion: .finished)
        second.send(completion: .failure(TestError(id: 4)))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 4)))])
        upstream.releaseSubscribers()
    }

    func testEverythingIsReleasedAfterCompletionAndAfterCancel() {
        weak var weakUpstream: PassthroughSubject<Int, Never>?
        weak var weakInner: PassthroughSubject<Int, Never>?
        weak var weakCancelled: RecordingSubscriber<Int, Never>?
        weak var weakCompleted: RecordingSubscriber<Int, Never>?
        do {
            let upstream = PassthroughSubject<Int, Never>()
            let inner = PassthroughSubject<Int, Never>()
            let cancelled = RecordingSubscriber<Int, Never>()
            let completed = RecordingSubscriber<Int, Never>()
            weakUpstream = upstream
            weakInner = inner
            weakCancelled = cancelled
            weakCompleted = completed
            upstream.flatMapLatest { _ in inner }.subscribe(cancelled)
            upstream.concatMap { _ in inner }.subscribe(completed)
            upstream.send(1)
            inner.send(5)
            cancelled.cancel()
            inner.send(completion: .finished)
            upstream.send(completion: .finished)
            XCTAssertEqual(cancelled.events, [.subscription, .value(5)])
            XCTAssertEqual(completed.events, [.subscription, .value(5), .completion(.finished)])
        }
        XCTAssertNil(weakUpstream)
        XCTAssertNil(weakInner)
        XCTAssertNil(weakCancelled)
        XCTAssertNil(weakCompleted)
    }
}
