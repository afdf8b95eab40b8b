import Tether
import TetherExtras
import TetherTesting
import XCTest

final class ReplaySubjectTests: TetherTestCase {
    func testNewSubscriberGetsTheLastValuesThenLiveOnes() {
        let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        let recorder = RecordingSubscriber<Int, TestError>()
        subject.subscribe(recorder)
        subject.send(4)
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .value(3), .value(4), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["ReplaySubject"])
    }

    func testReplayHonoursDemandPerSubscriber() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        subject.send(1)
        subject.send(2)
        subject.send(3)
        let slow = RecordingSubscriber<Int, Never>(demand: .max(1))
        let fast = RecordingSubscriber<Int, Never>()
        subject.subscribe(slow)
        subject.subscribe(fast)
        XCTAssertEqual(slow.events, [.subscription, .value(1)])
        XCTAssertEqual(fast.events, [.subscription, .value(1), .value(2), .value(3)])
        slow.request(.max(1))
        XCTAssertEqual(slow.events, [.subscription, .value(1), .value(2)])
        subject.send(4)
        XCTAssertEqual(fast.values, [1, 2, 3, 4])
        slow.request(.max(5))
        XCTAssertEqual(slow.events, [.subscription, .value(1), .value(2), .value(3), .value(4)])
        slow.cancel()
        fast.cancel()
    }

    func testValuesWithoutDemandKeepOnlyTheNewestBufferSize() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        subject.subscribe(recorder)
        for value in 1...5 { subject.send(value) }
        recorder.request(.unlimited)
        subject.send(6)
        XCTAssertEqual(recorder.events, [.subscription, .value(4), .value(5), .value(6)])
        recorder.cancel()
    }

    func testBufferOfZeroDropsValuesWithoutDemandLikePassthrough() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 0)
        subject.send(1)
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        subject.subscribe(recorder)
        subject.send(2)
        recorder.request(.max(1))
        subject.send(3)
        subject.send(4)
        XCTAssertEqual(recorder.events, [.subscription, .value(3)])
        recorder.cancel()
    }

    func testSubscriberAfterCompletionGetsTheBufferThenTheCompletion() {
        let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError(id: 7)))
        subject.send(3)
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 7)))])
    }

    func testCompletionWaitsBehindOwedValues() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 4)
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testReentrantSendIsDeliveredAtOnceNestedInTheCurrentValue() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        var depth = 0
        var maxDepth = 0
        var received: [Int] = []
        let cancellable = subject.sink { value in
            depth += 1
            maxDepth = max(maxDepth, depth)
            received.append(value)
            if value < 5 { subject.send(value + 1) }
            depth -= 1
        }
        subject.send(1)
        XCTAssertEqual(received, [1, 2, 3, 4, 5])
        XCTAssertEqual(maxDepth, 5)
        cancellable.cancel()
    }

    func testSubscribedToAnUpstreamItAsksForUnlimitedAtOnceAndRecords() {
        let upstream = RecordingPublisher<Int, Never>()
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let connection = upstream.subscribe(subject)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        _ = upstream.send(1)
        _ = upstream.send(2)
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        connection.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.releaseSubscribers()
    }

    func testEverythingIsReleasedAfterCancelAndAfterCompletion() {
        weak var weakSubject: ReplaySubject<Int, Never>?
        weak var weakCancelled: RecordingSubscriber<Int, Never>?
        weak var weakCompleted: RecordingSubscriber<Int, Never>?
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 2)
            let cancelled = RecordingSubscriber<Int, Never>(demand: .max(1))
            let completed = RecordingSubscriber<Int, Never>()
            weakSubject = subject
            weakCancelled = cancelled
            weakCompleted = completed
            subject.send(1)
            subject.send(2)
            subject.subscribe(cancelled)
            subject.subscribe(completed)
            cancelled.cancel()
            subject.send(completion: .finished)
            XCTAssertEqual(completed.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        }
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakCancelled)
        XCTAssertNil(weakCompleted)
    }

    func testSubjectSubscribedToUpstreamIsReleasedAfterTheConnectionIsCancelled() {
        weak var weakSubject: ReplaySubject<Int, Never>?
        let upstream = RecordingPublisher<Int, Never>()
        do {
            let subject = ReplaySubject<Int, Never>(bufferSize: 1)
            weakSubject = subject
            let connection = upstream.subscribe(subject)
            _ = upstream.send(1)
            connection.cancel()
        }
        upstream.releaseSubscribers()
        XCTAssertNil(weakSubject)
    }

    func testShareReplaySubscribesOnceAndReplaysToLateSubscribers() {
        let upstream = RecordingPublisher<Int, TestError>()
        let shared = upstream.share(replay: 2)
        let first = RecordingSubscriber<Int, TestError>()
        shared.subscribe(first)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        _ = upstream.send(1)
        _ = upstream.send(2)
        _ = upstream.send(3)
        let late = RecordingSubscriber<Int, TestError>()
        shared.subscribe(late)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        _ = upstream.send(4)
        upstream.send(completion: .failure(TestError(id: 2)))
        XCTAssertEqual(
            first.events,
            [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.failure(TestError(id: 2)))])
        XCTAssertEqual(
            late.events, [.subscription, .value(2), .value(3), .value(4), .completion(.failure(TestError(id: 2)))])
        upstream.releaseSubscribers()
    }

    func testShareReplayCancelsUpstreamWhenEverySubscriberCancels() {
        let upstream = RecordingPublisher<Int, Never>()
        let shared = upstream.share(replay: 1)
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        shared.subscribe(first)
        shared.subscribe(second)
        _ = upstream.send(1)
        first.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        second.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(second.events, [.subscription, .value(1)])
        upstream.releaseSubscribers()
    }

    func testShareReplayIsReleasedAfterCancel() {
        weak var weakShared:
            Publishers.Autoconnect<Publishers.Multicast<RecordingPublisher<Int, Never>, ReplaySubject<Int, Never>>>?
        let upstream = RecordingPublisher<Int, Never>()
        do {
            let shared = upstream.share(replay: 3)
            weakShared = shared
            let recorder = RecordingSubscriber<Int, Never>()
            shared.subscribe(recorder)
            _ = upstream.send(1)
            recorder.cancel()
        }
        upstream.releaseSubscribers()
        XCTAssertNil(weakShared)
    }
}
