import Tether
import TetherTesting
import XCTest

final class DeferredTests: TetherTestCase {
    func testCreatesAPublisherPerSubscriptionAndNotBefore() {
        var created = 0
        let deferred = Deferred { () -> Just<Int> in
            created += 1
            return Just(created)
        }
        XCTAssertEqual(created, 0)
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        deferred.subscribe(first)
        deferred.subscribe(second)
        XCTAssertEqual(created, 2)
        XCTAssertEqual(first.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(second.events, [.subscription, .value(2), .completion(.finished)])
    }

    func testPassesDemandAndCancellationToTheCreatedPublisher() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2))
        Deferred { upstream }.subscribe(recorder)
        upstream.send(5)
        upstream.send(completion: .failure(TestError(id: 3)))
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.failure(TestError(id: 3)))])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))])
        upstream.releaseSubscribers()
    }

    func testCancelReachesTheCreatedPublisher() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Deferred { upstream }.subscribe(recorder)
        recorder.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.cancelled])
        upstream.releaseSubscribers()
    }
}
