import Tether
import TetherTesting
import XCTest

final class CollectionCombiningTests: TetherTestCase {
    func testCombineLatestPublishesTheLatestOfEachOnceAllHaveAValue() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, TestError>() }
        let recorder = RecordingSubscriber<[Int], TestError>()
        subjects.combineLatest().subscribe(recorder)
        subjects[0].send(1)
        subjects[1].send(10)
        subjects[0].send(2)
        subjects[2].send(100)
        subjects[1].send(20)
        for subject in subjects { subject.send(completion: .finished) }
        XCTAssertEqual(
            recorder.events, [.subscription, .value([2, 10, 100]), .value([2, 20, 100]), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["CombineLatest"])
    }

    func testCombineLatestForwardsDemandToEveryPublisherAndFailsWithTheFirstFailure() {
        let publishers = (0..<3).map { _ in RecordingPublisher<Int, TestError>() }
        let recorder = RecordingSubscriber<[Int], TestError>(demand: .max(1))
        publishers.combineLatest().subscribe(recorder)
        for publisher in publishers { XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))]) }
        _ = publishers[0].send(1)
        _ = publishers[1].send(2)
        _ = publishers[2].send(3)
        _ = publishers[2].send(4)
        publishers[1].send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2, 3]), .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(publishers[0].subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(publishers[2].subscription?.events, [.requested(.max(1)), .cancelled])
        for publisher in publishers { publisher.releaseSubscribers() }
    }

    func testZipPairsValuesInOrder() {
        let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
        let recorder = RecordingSubscriber<[Int], Never>()
        subjects.zip().subscribe(recorder)
        subjects[0].send(1)
        subjects[0].send(2)
        subjects[1].send(10)
        subjects[2].send(100)
        subjects[1].send(20)
        subjects[2].send(200)
        subjects[1].send(30)
        subjects[0].send(completion: .finished)
        XCTAssertEqual(
            recorder.events, [.subscription, .value([1, 10, 100]), .value([2, 20, 200]), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Zip"])
    }

    func testEmptyCollectionsFinishAtOnce() {
        let combined = RecordingSubscriber<[Int], Never>()
        [Just<Int>]().combineLatest().subscribe(combined)
        XCTAssertEqual(combined.events, [.subscription, .completion(.finished)])
        let zipped = RecordingSubscriber<[Int], Never>()
        [Just<Int>]().zip().subscribe(zipped)
        XCTAssertEqual(zipped.events, [.subscription, .completion(.finished)])
        let merged = RecordingSubscriber<Int, Never>()
        [Just<Int>]().merge().subscribe(merged)
        XCTAssertEqual(merged.events, [.subscription, .completion(.finished)])
    }

    func testASingletonCollectionWrapsEachValue() {
        let recorder = RecordingSubscriber<[Int], Never>()
        [[1, 2].publisher].combineLatest().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value([1]), .value([2]), .completion(.finished)])
    }

    func testMergeMergesEveryPublisher() {
        let recorder = RecordingSubscriber<Int, Never>()
        [[1, 2].publisher, [3].publisher].merge().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testEverythingIsReleasedAfterCancel() {
        assertReleases(Int.self, [Int].self, Never.self) { upstream, capture, recorder in
            [upstream.map { $0 + capture.id }, upstream.map { $0 * 2 }].combineLatest().subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription, .value([1, 2])])
        }
        assertReleases(Int.self, [Int].self, Never.self) { upstream, capture, recorder in
            [upstream.map { $0 + capture.id }, upstream.map { $0 * 2 }].zip().subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription, .value([1, 2])])
        }
    }

    func testEverythingIsReleasedAfterCompletion() {
        assertReleases(Int.self, [Int].self, Never.self) { upstream, capture, recorder in
            [upstream.map { $0 + capture.id }, upstream.map { $0 * 2 }].combineLatest().subscribe(recorder)
            upstream.send(1)
            upstream.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value([1, 2]), .completion(.finished)])
        }
        assertReleases(Int.self, [Int].self, Never.self) { upstream, capture, recorder in
            [upstream.map { $0 + capture.id }, upstream.map { $0 * 2 }].zip().subscribe(recorder)
            upstream.send(1)
            upstream.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value([1, 2]), .completion(.finished)])
        }
    }
}
