import Tether
import TetherExtras
import TetherTesting
import XCTest

final class MaterializeTests: TetherTestCase {
    typealias IntEvent = Event<Int, TestError>

    func testValuesAndFinishBecomeEventsThenTheStreamFinishes() {
        let recorder = RecordingSubscriber<IntEvent, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).materialize().subscribe(recorder)
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value(.value(1)), .value(.value(2)), .value(.finished), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Materialize"])
    }

    func testFailureBecomesAnEventThenTheStreamFinishes() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<IntEvent, Never>()
        subject.materialize().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError(id: 5)))
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value(.value(1)), .value(.failure(TestError(id: 5))), .completion(.finished)])
    }

    func testCompletionEventWaitsForDemand() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<IntEvent, Never>(demand: .max(1))
        upstream.materialize().subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(upstream.send(1), [.none])
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(.value(1))])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(.value(1)), .value(.finished), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        upstream.releaseSubscribers()
    }

    func testCancelCancelsUpstream() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<IntEvent, Never>()
        upstream.materialize().subscribe(recorder)
        _ = upstream.send(1)
        recorder.cancel()
        _ = upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(.value(1))])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testASecondSubscriptionAndOneAfterTheCompletionAreCancelled() {
        let publisher = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<IntEvent, Never>(demand: .max(1))
        publisher.materialize().subscribe(recorder)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        publisher.subscriber?.receive(subscription: first)
        publisher.subscriber?.receive(subscription: second)
        _ = publisher.subscriber?.receive(1)
        publisher.subscriber?.receive(completion: .finished)
        publisher.subscriber?.receive(subscription: second)
        recorder.request(.max(1))
        publisher.subscriber?.receive(subscription: second)
        XCTAssertEqual(first.events, [.requested(.max(1))])
        XCTAssertEqual(second.events, [.cancelled, .cancelled, .cancelled])
        XCTAssertEqual(recorder.events, [.subscription, .value(.value(1)), .value(.finished), .completion(.finished)])
        publisher.release()
    }

    func testASubscriptionAfterACompletionThatCameFirstIsCancelled() {
        let publisher = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<IntEvent, Never>()
        publisher.materialize().subscribe(recorder)
        publisher.subscriber?.receive(completion: .failure(TestError(id: 2)))
        let late = RecordingSubscription()
        publisher.subscriber?.receive(subscription: late)
        XCTAssertEqual(late.events, [.cancelled])
        XCTAssertEqual(recorder.events, [])
        publisher.release()
    }

    func testDematerializeTurnsEventsBackIntoSignals() {
        let subject = PassthroughSubject<IntEvent, Never>()
        let recorder = RecordingSubscriber<Int, TestError>()
        subject.dematerialize().subscribe(recorder)
        subject.send(.value(1))
        subject.send(.value(2))
        subject.send(.failure(TestError(id: 6)))
        subject.send(.value(3))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 6)))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Dematerialize"])
    }

    func testDematerializeCancelsUpstreamOnTheCompletionEventAndPassesDemand() {
        let upstream = RecordingPublisher<IntEvent, Never>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2))
        upstream.dematerialize().subscribe(recorder)
        XCTAssertEqual(upstream.send(.value(1)), [.none])
        XCTAssertEqual(upstream.send(.finished), [.none])
        XCTAssertEqual(upstream.send(.value(2)), [.none])
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .cancelled])
        upstream.releaseSubscribers()
    }

    func testDematerializeFinishesWhenUpstreamFinishesWithoutAnEvent() {
        let recorder = RecordingSubscriber<Int, TestError>()
        [IntEvent.value(1)].publisher.dematerialize().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testRoundTripRestoresTheOriginalHistory() {
        let recorder = RecordingSubscriber<Int, TestError>()
        Record<Int, TestError>(output: [1, 2], completion: .failure(TestError(id: 8)))
            .materialize().dematerialize().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 8)))])
    }

    func testEverythingIsReleasedAfterCancelAndAfterCompletion() {
        weak var weakSubject: PassthroughSubject<Int, TestError>?
        weak var weakCancelled: RecordingSubscriber<IntEvent, Never>?
        weak var weakCompleted: RecordingSubscriber<Int, TestError>?
        do {
            let subject = PassthroughSubject<Int, TestError>()
            let cancelled = RecordingSubscriber<IntEvent, Never>()
            let completed = RecordingSubscriber<Int, TestError>()
            weakSubject = subject
            weakCancelled = cancelled
            weakCompleted = completed
            subject.materialize().subscribe(cancelled)
            subject.materialize().dematerialize().subscribe(completed)
            subject.send(1)
            cancelled.cancel()
            subject.send(completion: .finished)
            XCTAssertEqual(completed.events, [.subscription, .value(1), .completion(.finished)])
        }
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakCancelled)
        XCTAssertNil(weakCompleted)
    }

    func testPendingCompletionEventIsReleasedOnCancel() {
        weak var weakRecorder: RecordingSubscriber<IntEvent, Never>?
        do {
            let recorder = RecordingSubscriber<IntEvent, Never>(demand: .none)
            weakRecorder = recorder
            Empty<Int, TestError>().materialize().subscribe(recorder)
            XCTAssertEqual(recorder.events, [.subscription])
            recorder.cancel()
        }
        XCTAssertNil(weakRecorder)
    }
}
