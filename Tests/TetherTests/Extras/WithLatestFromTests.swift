import Tether
import TetherTesting
import XCTest

final class WithLatestFromTests: TetherTestCase {
    func testCombinesEachUpstreamValueWithTheLatestOtherValue() {
        let upstream = PassthroughSubject<Int, TestError>()
        let other = PassthroughSubject<String, TestError>()
        let recorder = RecordingSubscriber<String, TestError>()
        upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(recorder)
        upstream.send(1)
        other.send("a")
        other.send("b")
        upstream.send(2)
        upstream.send(3)
        other.send("c")
        upstream.send(4)
        upstream.send(completion: .finished)
        XCTAssertEqual(
            recorder.events, [.subscription, .value("2b"), .value("3b"), .value("4c"), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["WithLatestFrom"])
    }

    func testWithoutSelectorPublishesTheOthersLatestValue() {
        let upstream = PassthroughSubject<Void, Never>()
        let other = CurrentValueSubject<Int, Never>(1)
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.withLatestFrom(other).subscribe(recorder)
        upstream.send()
        other.send(2)
        upstream.send()
        upstream.send()
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(2), .completion(.finished)])
    }

    func testDemandGoesUpstreamAndDroppedValuesAreAskedForAgain() {
        let upstream = RecordingPublisher<Int, Never>()
        let other = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.withLatestFrom(other, resultSelector: +).subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(other.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(upstream.send(1), [.max(1)])
        _ = other.send(10)
        XCTAssertEqual(upstream.send(2), [.none])
        XCTAssertEqual(upstream.send(3), [.none])
        XCTAssertEqual(recorder.events, [.subscription, .value(12), .value(13)])
        recorder.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .cancelled])
        XCTAssertEqual(other.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
        other.releaseSubscribers()
    }

    func testOtherFinishingKeepsItsLatestValue() {
        let upstream = PassthroughSubject<Int, Never>()
        let other = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.withLatestFrom(other).subscribe(recorder)
        _ = other.send(5)
        other.send(completion: .finished)
        upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
        other.releaseSubscribers()
    }

    func testUpstreamFailurePropagatesAndCancelsOther() {
        let upstream = RecordingPublisher<Int, TestError>()
        let other = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.withLatestFrom(other).subscribe(recorder)
        upstream.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(other.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
        other.releaseSubscribers()
    }

    func testOtherFailurePropagatesAndCancelsUpstream() {
        let upstream = RecordingPublisher<Int, TestError>()
        let other = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.withLatestFrom(other).subscribe(recorder)
        _ = other.send(1)
        _ = upstream.send(0)
        other.send(completion: .failure(TestError(id: 2)))
        _ = upstream.send(0)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(TestError(id: 2)))])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
        other.releaseSubscribers()
    }

    func testOtherFailureDuringADeliveryComesRightAfterIt() {
        let upstream = PassthroughSubject<Int, TestError>()
        let other = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        let relay = AnySubscriber<Int, TestError>(
            receiveSubscription: { recorder.receive(subscription: $0) },
            receiveValue: { value in
                other.send(completion: .failure(TestError(id: 3)))
                XCTAssertEqual(recorder.events, [.subscription])
                return recorder.receive(value)
            },
            receiveCompletion: { recorder.receive(completion: $0) })
        upstream.withLatestFrom(other).subscribe(relay)
        other.send(7)
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.failure(TestError(id: 3)))])
    }

    func testFailingOtherBeforeUpstreamSubscribesStillHandsTheSubscriptionFirst() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.withLatestFrom(Fail<Int, TestError>(error: TestError(id: 4))).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 4)))])
        XCTAssertEqual(upstream.subscription?.events, [.cancelled])
        upstream.releaseSubscribers()
    }

    func testEverythingIsReleasedAfterCancelAndAfterCompletion() {
        weak var weakUpstream: PassthroughSubject<Int, Never>?
        weak var weakOther: PassthroughSubject<Int, Never>?
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let upstream = PassthroughSubject<Int, Never>()
            let other = PassthroughSubject<Int, Never>()
            let cancelled = RecordingSubscriber<Int, Never>()
            let completed = RecordingSubscriber<Int, Never>()
            weakUpstream = upstream
            weakOther = other
            weakRecorder = completed
            upstream.withLatestFrom(other).subscribe(cancelled)
            upstream.withLatestFrom(other).subscribe(completed)
            other.send(1)
            upstream.send(2)
            cancelled.cancel()
            upstream.send(completion: .finished)
            XCTAssertEqual(completed.events, [.subscription, .value(1), .completion(.finished)])
        }
        XCTAssertNil(weakUpstream)
        XCTAssertNil(weakOther)
        XCTAssertNil(weakRecorder)
    }
}
