import Tether
import TetherTesting
import XCTest

final class AmbTests: TetherTestCase {
    func testTheFirstToSendAValueWinsAndTheOtherIsCancelled() {
        let first = RecordingPublisher<Int, Never>()
        let second = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        first.amb(second).subscribe(recorder)
        XCTAssertEqual(second.send(20), [.none])
        XCTAssertEqual(first.send(10), [.none])
        XCTAssertEqual(second.send(21), [.none])
        second.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(20), .value(21), .completion(.finished)])
        XCTAssertEqual(first.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(second.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Amb"])
        first.releaseSubscribers()
        second.releaseSubscribers()
    }

    func testACompletionWinsToo() {
        let first = PassthroughSubject<Int, TestError>()
        let second = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        first.amb(second).subscribe(recorder)
        first.send(completion: .failure(TestError(id: 1)))
        second.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
    }

    func testDemandGoesToEveryCompetitorUntilAWinnerThenToTheWinnerOnly() {
        let first = RecordingPublisher<Int, Never>()
        let second = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        first.amb(second).subscribe(recorder)
        recorder.request(.max(2))
        XCTAssertEqual(first.subscription?.events, [.requested(.max(1)), .requested(.max(2))])
        XCTAssertEqual(second.subscription?.events, [.requested(.max(1)), .requested(.max(2))])
        _ = first.send(1)
        recorder.request(.max(3))
        XCTAssertEqual(first.subscription?.events, [.requested(.max(1)), .requested(.max(2)), .requested(.max(3))])
        XCTAssertEqual(second.subscription?.events, [.requested(.max(1)), .requested(.max(2)), .cancelled])
        recorder.cancel()
        XCTAssertEqual(
            first.subscription?.events, [.requested(.max(1)), .requested(.max(2)), .requested(.max(3)), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        first.releaseSubscribers()
        second.releaseSubscribers()
    }

    func testASynchronousWinnerMeansLaterPublishersAreNeverSubscribed() {
        let second = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        Just(1).amb(second).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertNil(second.subscription)
    }

    func testCollectionFormRacesEveryPublisherAndEmptyFinishesAtOnce() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = RecordingSubscriber<Int, Never>()
        subjects.amb().subscribe(recorder)
        subjects[2].send(2)
        subjects[0].send(0)
        subjects[2].send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
        let empty = RecordingSubscriber<Int, Never>()
        [PassthroughSubject<Int, Never>]().amb().subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.finished)])
        let variadic = RecordingSubscriber<Int, Never>()
        Just(1).amb(with: Just(2), Just(3)).subscribe(variadic)
        XCTAssertEqual(variadic.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testEverythingIsReleasedAfterCancel() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            let other = PassthroughSubject<Int, Never>()
            upstream.amb(other.map { $0 + capture.id }).subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        }
    }

    func testEverythingIsReleasedAfterCompletion() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            let other = PassthroughSubject<Int, Never>()
            [upstream.map { $0 + capture.id }.eraseToAnyPublisher(), other.eraseToAnyPublisher()].amb().subscribe(
                recorder)
            other.send(5)
            upstream.send(1)
            other.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
        }
    }
}
