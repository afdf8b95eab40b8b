import Tether
import TetherTesting
import XCTest

final class SequenceOperatorsTests: TetherTestCase {
    func testEnumeratedPairsEachValueWithItsOffset() {
        let recorder = RecordingSubscriber<String, TestError>()
        Record<String, TestError>(output: ["a", "b", "c"], completion: .failure(TestError(id: 2)))
            .enumerated().map { "\($0.offset)\($0.element)" }.subscribe(recorder)
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value("0a"), .value("1b"), .value("2c"), .completion(.failure(TestError(id: 2)))])
    }

    func testEnumeratedKeepsNilValuesOfAnOptionalOutput() {
        let recorder = RecordingSubscriber<String, Never>()
        [1, nil, 3].publisher.enumerated().map { "\($0.offset):\(String(describing: $0.element))" }.subscribe(recorder)
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value("0:Optional(1)"), .value("1:nil"), .value("2:Optional(3)"), .completion(.finished)])
    }

    func testEnumeratedPassesDemandThrough() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<String, Never>(demand: .max(2))
        upstream.enumerated().map { "\($0.offset)-\($0.element)" }.subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(upstream.send(7), [.none])
        XCTAssertEqual(upstream.send(8), [.none])
        XCTAssertEqual(recorder.events, [.subscription, .value("0-7"), .value("1-8")])
        recorder.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .cancelled])
        upstream.releaseSubscribers()
    }

    func testPairwisePublishesConsecutivePairsAndNothingForTheFirstValue() {
        let recorder = RecordingSubscriber<String, Never>()
        [1, 2, 3, 4].publisher.pairwise().map { "\($0.previous)>\($0.current)" }.subscribe(recorder)
        XCTAssertEqual(
            recorder.events, [.subscription, .value("1>2"), .value("2>3"), .value("3>4"), .completion(.finished)])
    }

    func testPairwiseOfOneValueFinishesWithoutPublishing() {
        let recorder = RecordingSubscriber<String, TestError>()
        Just(1).setFailureType(to: TestError.self).pairwise().map { "\($0.previous)>\($0.current)" }
            .subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testPairwiseAsksAgainForTheFirstValue() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<String, Never>(demand: .max(1))
        upstream.pairwise().map { "\($0.previous)>\($0.current)" }.subscribe(recorder)
        XCTAssertEqual(upstream.send(1), [.max(1)])
        XCTAssertEqual(upstream.send(2), [.none])
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value("1>2"), .completion(.finished)])
        upstream.releaseSubscribers()
    }

    func testNwisePublishesSlidingWindows() {
        let recorder = RecordingSubscriber<[Int], Never>()
        [1, 2, 3, 4, 5].publisher.nwise(3).subscribe(recorder)
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value([1, 2, 3]), .value([2, 3, 4]), .value([3, 4, 5]), .completion(.finished)])
    }

    func testNwiseOfOnePublishesEachValueAlone() {
        let recorder = RecordingSubscriber<[Int], Never>()
        [1, 2].publisher.nwise(1).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value([1]), .value([2]), .completion(.finished)])
    }

    func testNwiseWithFewerValuesThanTheSizePublishesNothingAndFailureTypeIsKept() {
        let recorder = RecordingSubscriber<[Int], TestError>()
        Record<Int, TestError>(output: [1, 2], completion: .failure(TestError(id: 5))).nwise(3).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 5)))])
    }

    func testNwiseAsksAgainForValuesThatFillNoWindow() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<[Int], Never>(demand: .max(1))
        upstream.nwise(2).subscribe(recorder)
        XCTAssertEqual(upstream.send(1), [.max(1)])
        XCTAssertEqual(upstream.send(2), [.none])
        recorder.cancel()
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2])])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .cancelled])
        upstream.releaseSubscribers()
    }

    func testToggleNegatesEachValue() {
        let subject = PassthroughSubject<Bool, TestError>()
        let recorder = RecordingSubscriber<Bool, TestError>()
        subject.toggle().subscribe(recorder)
        subject.send(true)
        subject.send(false)
        subject.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(false), .value(true), .completion(.failure(TestError(id: 1)))])
    }

    func testEverythingIsReleasedAfterCompletionAndAfterCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        weak var weakCancelled: RecordingSubscriber<[Int], Never>?
        weak var weakCompleted: RecordingSubscriber<String, Never>?
        weak var weakToggled: RecordingSubscriber<Bool, Never>?
        do {
            let subject = PassthroughSubject<Int, Never>()
            let cancelled = RecordingSubscriber<[Int], Never>()
            let completed = RecordingSubscriber<String, Never>()
            let toggled = RecordingSubscriber<Bool, Never>()
            weakSubject = subject
            weakCancelled = cancelled
            weakCompleted = completed
            weakToggled = toggled
            subject.nwise(2).subscribe(cancelled)
            subject.enumerated().pairwise().map { "\($0.previous.offset)\($0.current.element)" }.subscribe(completed)
            subject.map { $0.isMultiple(of: 2) }.toggle().subscribe(toggled)
            subject.send(1)
            subject.send(2)
            cancelled.cancel()
            subject.send(completion: .finished)
            XCTAssertEqual(cancelled.events, [.subscription, .value([1, 2])])
            XCTAssertEqual(completed.events, [.subscription, .value("02"), .completion(.finished)])
            XCTAssertEqual(toggled.events, [.subscription, .value(true), .value(false), .completion(.finished)])
        }
        XCTAssertNil(weakSubject)
        XCTAssertNil(weakCancelled)
        XCTAssertNil(weakCompleted)
        XCTAssertNil(weakToggled)
    }
}
