import Foundation
import Tether
import TetherExtras
import TetherTesting
import XCTest

final class ComposedOperatorsTests: TetherTestCase {
    // MARK: partition

    func testPartitionSplitsValuesOverOneSharedSubscription() {
        let upstream = RecordingPublisher<Int, TestError>()
        var asked: [Int] = []
        let (evens, odds) = upstream.partition { value in
            asked.append(value)
            return value.isMultiple(of: 2)
        }
        let matching = RecordingSubscriber<Int, TestError>()
        let nonMatching = RecordingSubscriber<Int, TestError>()
        evens.subscribe(matching)
        odds.subscribe(nonMatching)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        for value in 1...4 { _ = upstream.send(value) }
        upstream.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(asked, [1, 2, 3, 4])
        XCTAssertEqual(matching.events, [.subscription, .value(2), .value(4), .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(
            nonMatching.events, [.subscription, .value(1), .value(3), .completion(.failure(TestError(id: 1)))])
        upstream.releaseSubscribers()
    }

    func testPartitionCancelsTheSharedSubscriptionOnceBothSidesCancel() {
        let upstream = RecordingPublisher<Int, Never>()
        let (matching, nonMatching) = upstream.partition { $0 > 0 }
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        matching.subscribe(first)
        nonMatching.subscribe(second)
        first.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        second.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testPartitionReleasesEverythingAfterCompletion() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            let (matching, nonMatching) = upstream.partition { $0 > capture.id }
            let other = RecordingSubscriber<Int, Never>()
            matching.subscribe(recorder)
            nonMatching.subscribe(other)
            upstream.send(1)
            upstream.send(0)
            upstream.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
            XCTAssertEqual(other.events, [.subscription, .value(0), .completion(.finished)])
        }
    }

    // MARK: withUnretained

    func testWithUnretainedPairsValuesWithTheObjectAndFinishesOnceItIsGone() {
        var owner: ReleaseProbe? = ReleaseProbe(id: 7)
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.withUnretained(owner!) { object, value in object.id * 10 + value }.subscribe(recorder)
        XCTAssertEqual(upstream.send(1), [.none])
        owner = nil
        XCTAssertEqual(upstream.send(2), [.none])
        XCTAssertEqual(upstream.send(3), [.none])
        XCTAssertEqual(recorder.events, [.subscription, .value(71), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testWithUnretainedPublishesPairs() {
        let owner = ReleaseProbe(id: 3)
        var pairs: [String] = []
        let cancellable = [1, 2].publisher.withUnretained(owner).sink { object, value in
            pairs.append("\(object.id):\(value)")
        }
        XCTAssertEqual(pairs, ["3:1", "3:2"])
        cancellable.cancel()
    }

    func testWithUnretainedDoesNotKeepTheObjectAliveThroughAReplayingUpstream() {
        let upstream = ReplaySubject<Int, Never>(bufferSize: 2)
        upstream.send(1)
        let recorder = RecordingSubscriber<Int, Never>()
        assertDeallocated(ReleaseProbe(id: 5)) { owner in
            upstream.share(replay: 1).withUnretained(owner) { $0.id * 10 + $1 }.subscribe(recorder)
            XCTAssertEqual(recorder.events, [.subscription, .value(51)])
        }
        upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(51), .completion(.finished)])
    }

    func testWithUnretainedReleasesEverythingAfterCancel() {
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            upstream.withUnretained(capture) { $0.id + $1 }.subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        }
    }

    // MARK: prefix(duration:)

    func testPrefixDurationPassesValuesUntilTheDeadlineThenFinishes() {
        let scheduler = DispatchQueue.test
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(duration: .seconds(2), scheduler: scheduler).subscribe(recorder)
        _ = upstream.send(1)
        scheduler.advance(by: .seconds(1))
        _ = upstream.send(2)
        scheduler.advance(by: .seconds(1))
        _ = upstream.send(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testPrefixDurationPassesAnEarlierCompletion() {
        let scheduler = DispatchQueue.test
        let recorder = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 1)).prefix(duration: .seconds(2), scheduler: scheduler).subscribe(
            recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        scheduler.advance(by: .seconds(2))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
    }

    func testPrefixDurationReleasesEverythingAfterCancel() {
        let scheduler = DispatchQueue.test
        assertReleases(Int.self, Int.self, Never.self) { upstream, capture, recorder in
            upstream.map { $0 + capture.id }.prefix(duration: .seconds(2), scheduler: scheduler).subscribe(recorder)
            upstream.send(1)
            recorder.cancel()
            scheduler.advance(by: .seconds(2))
            XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        }
    }
}
