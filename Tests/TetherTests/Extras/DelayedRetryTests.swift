import Foundation
import Tether
import TetherTesting
import XCTest

final class DelayedRetryTests: TetherTestCase {
    func testAttemptsWaitTheDelayTimesTheBackoffThenTheLastFailureFails() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var subscribedAt: [DispatchQueue.SchedulerTimeType.Stride] = []
        let failing = Deferred { () -> Fail<Int, TestError> in
            subscribedAt.append(start.distance(to: scheduler.now))
            return Fail(error: TestError(id: subscribedAt.count))
        }
        let recorder = RecordingSubscriber<Int, TestError>()
        failing.retry(3, delay: .seconds(1), backoff: 2, scheduler: scheduler).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["DelayedRetry"])
        scheduler.advance(by: .seconds(10))
        XCTAssertEqual(subscribedAt, [.seconds(0), .seconds(1), .seconds(3), .seconds(7)])
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 4)))])
    }

    func testASuccessfulAttemptFinishesNormally() {
        let scheduler = DispatchQueue.test
        var attempts = 0
        let flaky = Deferred { () -> AnyPublisher<Int, TestError> in
            attempts += 1
            guard attempts == 2 else { return Fail(error: TestError(id: attempts)).eraseToAnyPublisher() }
            return Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        let recorder = RecordingSubscriber<Int, TestError>()
        flaky.retry(5, delay: .seconds(2), scheduler: scheduler).subscribe(recorder)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.events, [.subscription])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
        XCTAssertEqual(attempts, 2)
    }

    func testRetryWhenGetsTheFailureAndAttemptNumberAndCanGiveUp() {
        let scheduler = DispatchQueue.test
        var asked: [String] = []
        var attempts = 0
        let failing = Deferred { () -> Fail<Int, TestError> in
            attempts += 1
            return Fail(error: TestError(id: attempts))
        }
        let recorder = RecordingSubscriber<Int, TestError>()
        failing.retry(
            when: { failure, attempt -> DispatchQueue.SchedulerTimeType.Stride? in
                asked.append("\(failure.id)@\(attempt)")
                return failure.id < 3 ? .seconds(attempt) : nil
            }, scheduler: scheduler
        ).subscribe(recorder)
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(asked, ["1@1", "2@2", "3@3"])
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 3)))])
    }

    func testAResubscriptionIsAskedForTheUnmetDemandAndRequestsMadeWhileWaiting() {
        let scheduler = DispatchQueue.test
        let attempts = [RecordingPublisher<Int, TestError>(), RecordingPublisher<Int, TestError>()]
        var subscribed = 0
        let upstream = Deferred { () -> RecordingPublisher<Int, TestError> in
            subscribed += 1
            return attempts[subscribed - 1]
        }
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3))
        upstream.retry(1, delay: .seconds(1), scheduler: scheduler).subscribe(recorder)
        XCTAssertEqual(attempts[0].send(1), [.none])
        attempts[0].send(completion: .failure(TestError(id: 1)))
        recorder.request(.max(1))
        XCTAssertEqual(subscribed, 1)
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(subscribed, 2)
        XCTAssertEqual(attempts[0].subscription?.events, [.requested(.max(3))])
        XCTAssertEqual(attempts[1].subscription?.events, [.requested(.max(3))])
        XCTAssertEqual(attempts[1].send(2), [.none])
        attempts[1].send(completion: .failure(TestError(id: 2)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 2)))])
        for attempt in attempts { attempt.releaseSubscribers() }
    }

    func testCancellingWhileWaitingSubscribesNothingMore() {
        let scheduler = DispatchQueue.test
        var subscriptions = 0
        let failing = Deferred { () -> Fail<Int, TestError> in
            subscriptions += 1
            return Fail(error: TestError())
        }
        let recorder = RecordingSubscriber<Int, TestError>()
        failing.retry(3, delay: .seconds(1), scheduler: scheduler).subscribe(recorder)
        recorder.cancel()
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(subscriptions, 1)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testZeroRetriesFailsAtOnce() {
        let recorder = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 9))
            .retry(0, delay: .seconds(1), scheduler: DispatchQueue.test).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 9)))])
    }

    func testEverythingIsReleasedAfterCancel() {
        let scheduler = DispatchQueue.test
        assertReleases(Int.self, Int.self, TestError.self) { upstream, capture, recorder in
            upstream.retry(when: { _, _ in .seconds(capture.id + 1) }, scheduler: scheduler).subscribe(recorder)
            upstream.send(completion: .failure(TestError()))
            recorder.cancel()
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(recorder.events, [.subscription])
        }
    }

    func testEverythingIsReleasedAfterCompletion() {
        let scheduler = DispatchQueue.test
        assertReleases(Int.self, Int.self, TestError.self) { upstream, capture, recorder in
            upstream.retry(when: { _, _ in .seconds(capture.id + 1) }, scheduler: scheduler).subscribe(recorder)
            upstream.send(1)
            upstream.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        }
    }
}
