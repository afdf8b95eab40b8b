import Tether
import TetherTesting
import XCTest

final class FailureOperatorsTests: TetherTestCase {
    func testMapToResultPublishesValuesAsSuccessAndAFailureAsOneFailureThenFinishes() {
        let recorder = RecordingSubscriber<Result<Int, TestError>, Never>()
        Record<Int, TestError>(output: [1, 2], completion: .failure(TestError(id: 6))).mapToResult().subscribe(recorder)
        XCTAssertEqual(
            recorder.events,
            [
                .subscription, .value(.success(1)), .value(.success(2)), .value(.failure(TestError(id: 6))),
                .completion(.finished),
            ])
    }

    func testMapToResultFinishesWithoutAFailureValueWhenTheUpstreamFinishes() {
        let recorder = RecordingSubscriber<Result<Int, TestError>, Never>()
        Record<Int, TestError>(output: [3], completion: .finished).mapToResult().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(.success(3)), .completion(.finished)])
    }

    func testMapToResultDeliversTheFailureValueOnceDemanded() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Result<Int, TestError>, Never>(demand: .max(1))
        upstream.mapToResult().subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(upstream.send(1), [.none])
        upstream.send(completion: .failure(TestError(id: 2)))
        XCTAssertEqual(recorder.events, [.subscription, .value(.success(1))])
        recorder.subscription?.request(.max(1))
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value(.success(1)), .value(.failure(TestError(id: 2))), .completion(.finished)])
        upstream.releaseSubscribers()
    }

    func testIgnoreFailureTurnsAFailureIntoAFinish() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.ignoreFailure().subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError(id: 3)))
        subject.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testIgnoreFailurePassesDemandAndCancelThrough() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.ignoreFailure().subscribe(recorder)
        XCTAssertEqual(upstream.send(1), [.none])
        recorder.cancel()
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .cancelled])
        upstream.releaseSubscribers()
    }

    func testEverythingIsReleasedAfterCompletionAndAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, TestError>?
        weak var weakCancelled: RecordingSubscriber<Result<Int, TestError>, Never>?
        weak var weakCompleted: RecordingSubscriber<Int, Never>?
        do {
            let subject = PassthroughSubject<Int, TestError>()
            let cancelled = RecordingSubscriber<Result<Int, TestError>, Never>()
            let completed = RecordingSubscriber<Int, Never>()
            weakSubject = subject
            weakCancelled = cancelled
            weakCompleted = completed
            subject.mapToResult().subscribe(cancelled)
            subject.ignoreFailure().subscribe(completed)
            subject.send(1)
            cancelled.cancel()
            subject.send(completion: .failure(TestError(id: 1)))
            XCTAssertEqual(cancelled.events, [.subscription, .value(.success(1))])
            XCTAssertEqual(completed.events, [.subscription, .value(1), .completion(.finished)])
        }
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakCancelled)
        XCTAssertNil(weakCompleted)
    }
}
