import Tether
import TetherTesting
import XCTest

final class ShareTests: TetherTestCase {
    func testUpstreamIsSubscribedOnceAndALateSubscriberSeesOnlyLaterValues() {
        let upstream = RecordingPublisher<Int, TestError>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, TestError>()
        shared.subscribe(first)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.send(1)
        let second = RecordingSubscriber<Int, TestError>()
        shared.subscribe(second)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertEqual(first.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(second.events, [.subscription, .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.releaseSubscribers()
    }

    func testUpstreamIsCancelledWhenTheLastAttachedSubscriberCancelsAndResubscribedAfter() {
        let upstream = RecordingPublisher<Int, TestError>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, TestError>()
        let second = RecordingSubscriber<Int, TestError>()
        shared.subscribe(first)
        shared.subscribe(second)
        first.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.send(1)
        second.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(first.values, [])
        XCTAssertEqual(second.values, [1])
        let third = RecordingSubscriber<Int, TestError>()
        shared.subscribe(third)
        XCTAssertEqual(upstream.subscriptions.count, 2)
        XCTAssertEqual(upstream.subscriptions.last?.events, [.requested(.unlimited)])
        third.cancel()
        XCTAssertEqual(upstream.subscriptions.last?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testCancellingTwiceCountsOnce() {
        let upstream = RecordingPublisher<Int, Never>()
        let shared = upstream.share()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        let subscription = first.subscription
        first.cancel()
        subscription?.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        second.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testValuesReachOnlySubscribersWithDemand() {
        let upstream = RecordingPublisher<Int, Never>()
        let shared = upstream.share()
        let eager = RecordingSubscriber<Int, Never>()
        let paced = RecordingSubscriber<Int, Never>(demand: .max(1))
        shared.subscribe(eager)
        shared.subscribe(paced)
        for value in 1...3 { upstream.send(value) }
        XCTAssertEqual(eager.values, [1, 2, 3])
        XCTAssertEqual(paced.values, [1])
        eager.cancel()
        paced.cancel()
        upstream.releaseSubscribers()
    }

    func testSharedColdPublisherRunsOnceForAllSubscribersAttachedBeforeItsDemand() {
        var runs = 0
        let shared = Deferred { () -> Publishers.Sequence<[Int], Never> in
            runs += 1
            return [1, 2, 3].publisher
        }.share()
        let late = RecordingSubscriber<Int, Never>(demand: .none)
        let eager = RecordingSubscriber<Int, Never>(demand: .none)
        shared.subscribe(late)
        shared.subscribe(eager)
        eager.request(.unlimited)
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(eager.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        XCTAssertEqual(late.events, [.subscription, .completion(.finished)])
    }

    func testShareIsAClassEqualOnlyToItself() {
        let upstream = Just(1)
        let shared = upstream.share()
        let alias = shared
        XCTAssertEqual(shared, alias)
        XCTAssertNotEqual(shared, upstream.share())
        XCTAssertEqual(shared.upstream, Just(1))
    }

    func testSubscriptionDescribesItselfAsMulticast() {
        let upstream = RecordingPublisher<Int, Never>()
        let shared = upstream.share()
        let recorder = RecordingSubscriber<Int, Never>()
        shared.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Multicast"])
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testCancelReleasesTheSubscriberAndTheUpstreamSubscription() {
        let upstream = RecordingPublisher<Int, Never>()
        var shared: Publishers.Share<RecordingPublisher<Int, Never>>? = upstream.share()
        var recorder: RecordingSubscriber<Int, Never>? = RecordingSubscriber()
        weak let weakRecorder = recorder
        weak let weakShare = shared
        shared?.subscribe(recorder!)
        recorder?.cancel()
        recorder = nil
        XCTAssertNil(weakRecorder)
        shared = nil
        upstream.releaseSubscribers()
        XCTAssertNil(weakShare)
    }

    func testConcurrentSubscribersAndCancelsLeaveTheUpstreamCancelled() {
        let upstream = RecordingPublisher<Int, Never>()
        let shared = UncheckedBox(upstream.share())
        DispatchQueueStandIn.concurrentPerform(iterations: 200) { _ in
            let recorder = RecordingSubscriber<Int, Never>()
            shared.value.subscribe(recorder)
            recorder.cancel()
        }
        for subscription in upstream.subscriptions {
            XCTAssertEqual(subscription.events.last, .cancelled)
        }
        XCTAssertGreaterThan(upstream.subscriptions.count, 0)
        upstream.releaseSubscribers()
    }
}
