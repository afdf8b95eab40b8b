import Tether
import TetherTesting
import XCTest

final class SwitchIfEmptyTests: TetherTestCase {
    func testAnEmptyUpstreamSwitchesToTheFallback() {
        let recorder = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().switchIfEmpty([7, 8].publisher).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .value(8), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["SwitchIfEmpty"])
    }

    func testAnUpstreamWithValuesNeverSubscribesTheFallback() {
        let fallback = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        [1].publisher.switchIfEmpty(fallback).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertNil(fallback.subscription)
    }

    func testAFailurePassesThroughWithoutTheFallback() {
        var made = 0
        let recorder = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 1))
            .switchIfEmpty { () -> Result<Int, TestError>.Publisher in
                made += 1
                return Result.Publisher(0)
            }
            .subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(made, 0)
    }

    func testTheFallbackIsAskedForTheDemandMadeSoFarThenForLaterRequests() {
        let upstream = RecordingPublisher<Int, TestError>()
        let fallback = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2))
        upstream.switchIfEmpty(fallback).subscribe(recorder)
        recorder.request(.max(1))
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .requested(.max(1))])
        upstream.send(completion: .finished)
        XCTAssertEqual(fallback.subscription?.events, [.requested(.max(3))])
        recorder.request(.max(4))
        XCTAssertEqual(fallback.subscription?.events, [.requested(.max(3)), .requested(.max(4))])
        XCTAssertEqual(fallback.send(5), [.none])
        fallback.send(completion: .failure(TestError(id: 2)))
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.failure(TestError(id: 2)))])
        upstream.releaseSubscribers()
        fallback.releaseSubscribers()
    }

    func testReplaceEmptyWithErrorFailsOnlyWhenEmpty() {
        let empty = RecordingSubscriber<Int, TestError>(demand: .none)
        Empty<Int, TestError>().replaceEmpty(withError: TestError(id: 3)).subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.failure(TestError(id: 3)))])
        let full = RecordingSubscriber<Int, TestError>()
        [1].publisher.setFailureType(to: TestError.self).replaceEmpty(withError: TestError(id: 3)).subscribe(full)
        XCTAssertEqual(full.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testTheFallbackClosureRunsOncePerEmptySubscription() {
        var made = 0
        let publisher = Empty<Int, Never>().switchIfEmpty { () -> Just<Int> in
            made += 1
            return Just(made)
        }
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        XCTAssertEqual(first.values, [1])
        XCTAssertEqual(second.values, [2])
    }

    func testEverythingIsReleasedAfterCancel() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            let fallback = PassthroughSubject<Int, Never>()
            upstream.switchIfEmpty { fallback.map { $0 + capture.id } }.subscribe(recorder)
            upstream.send(completion: .finished)
            fallback.send(1)
            recorder.cancel()
            fallback.send(2)
            XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        }
    }

    func testEverythingIsReleasedAfterCompletion() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            upstream.switchIfEmpty { Just(capture.id) }.subscribe(recorder)
            upstream.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value(0), .completion(.finished)])
        }
    }
}
