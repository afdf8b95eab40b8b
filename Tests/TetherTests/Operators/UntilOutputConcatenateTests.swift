import Tether
import TetherTesting
import XCTest

final class UntilOutputConcatenateTests: TetherTestCase {
    func testPrefixUntilOutputFinishesAndCancelsTheUpstreamWhenTriggerFires() {
        let upstream = RecordingPublisher<Int, Never>()
        let trigger = RecordingPublisher<String, TestError>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(5))
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)

        upstream.send(1)
        XCTAssertEqual(trigger.send("go"), [.none])
        XCTAssertEqual(upstream.send(2), [.none])

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(5)), .cancelled])
        XCTAssertEqual(trigger.subscription?.events, [.requested(.max(1))])
        // Combine's subscription does not describe itself: only its type names the operator.
        XCTAssertEqual(recorder.subscriptionDescriptions.map { $0.contains("PrefixUntilOutput<") }, [true])
        trigger.releaseSubscribers()
        upstream.releaseSubscribers()
    }

    func testPrefixUntilOutputIgnoresTriggerCompletion() {
        let upstream = RecordingPublisher<Int, Never>()
        let trigger = RecordingPublisher<String, TestError>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)

        trigger.send(completion: .failure(TestError()))
        upstream.send(1)
        upstream.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(trigger.subscription?.events, [.requested(.max(1))])
        trigger.releaseSubscribers()
        upstream.releaseSubscribers()
    }

    func testPrefixUntilOutputWithImmediateTriggerFinishesBeforeAnySubscriptionAsInCombine() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.prefix(untilOutputFrom: Just(())).subscribe(recorder)

        XCTAssertEqual(recorder.events, [.completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.cancelled])
        upstream.releaseSubscribers()
    }

    func testDropUntilOutputDropsUsingDemandUntilTriggerFiresAsInCombine() {
        let upstream = RecordingPublisher<Int, TestError>()
        let trigger = RecordingPublisher<String, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2)) { .max($0) }
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)

        XCTAssertEqual(upstream.send(1), [.none])
        trigger.send("go")
        XCTAssertEqual(upstream.send(2), [.max(2)])
        upstream.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(trigger.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["DropUntilOutput"])
        trigger.releaseSubscribers()
        upstream.releaseSubscribers()
    }

    func testDropUntilOutputTrapsOnADroppedValueWithoutDemand() {
        let trap = ChildProcessTrap(
            test: "TetherTests.UntilOutputConcatenateTests/testDropUntilOutputTrapsOnADroppedValueWithoutDemand",
            id: "value")
        let outcome = trap.run {
            let upstream = RecordingPublisher<Int, TestError>()
            upstream.drop(untilOutputFrom: Empty<Void, TestError>(completeImmediately: false))
                .subscribe(RecordingSubscriber<Int, TestError>(demand: .none))
            _ = upstream.send(0)
        }
        guard !ChildProcessTrap.isChildProcess else { return }
        guard case .trapped = outcome else { return XCTFail("did not trap: \(outcome)") }
    }

    func testDropUntilOutputPassesOnEveryCompletionAfterTheTriggerFinishedAsInCombine() {
        let upstream = RecordingPublisher<Int, TestError>()
        let trigger = RecordingPublisher<String, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(5))
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)
        trigger.send(completion: .finished)
        upstream.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(5)), .cancelled])
        trigger.releaseSubscribers()
        upstream.releaseSubscribers()
    }

    func testDropUntilOutputFailsWhenTriggerFails() {
        let upstream = RecordingPublisher<Int, TestError>()
        let trigger = RecordingPublisher<String, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.drop(untilOutputFrom: trigger).subscribe(recorder)

        trigger.send(completion: .failure(TestError(id: 6)))

        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 6)))])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        trigger.releaseSubscribers()
        upstream.releaseSubscribers()
    }

    func testUntilOutputCancelCancelsBothAndTheSubscriptionKeepsTheSubscriberAsInCombine() {
        let upstream = RecordingPublisher<Int, Never>()
        let trigger = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            upstream.prefix(untilOutputFrom: trigger).subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(trigger.subscription?.events, [.requested(.max(1)), .cancelled])
        trigger.releaseSubscribers()
        upstream.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testConcatenateSubscribesSuffixAfterPrefixFinishesWithUnmetDemand() {
        let prefix = RecordingPublisher<Int, Never>()
        let suffix = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(3))
        prefix.append(suffix).subscribe(recorder)

        XCTAssertNil(suffix.subscription)
        prefix.send(1)
        prefix.send(completion: .finished)
        suffix.send(2)
        suffix.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(prefix.subscription?.events, [.requested(.max(3))])
        XCTAssertEqual(suffix.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Concatenate"])
        prefix.releaseSubscribers()
        suffix.releaseSubscribers()
    }

    func testConcatenateFailureOfPrefixNeverSubscribesSuffix() {
        let prefix = RecordingPublisher<Int, TestError>()
        let suffix = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        prefix.append(suffix).subscribe(recorder)

        prefix.send(completion: .failure(TestError(id: 2)))

        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 2)))])
        XCTAssertNil(suffix.subscription)
        prefix.releaseSubscribers()
    }

    func testConcatenateCancelReachesCurrentPublisherAndHoldsTheSubscriberForLifeAsCombineDoes() {
        let prefix = RecordingPublisher<Int, Never>()
        let suffix = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakRecorder = recorder
            prefix.append(suffix).subscribe(recorder)
            prefix.send(completion: .finished)
            recorder.cancel()
        }
        XCTAssertEqual(suffix.subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertNotNil(weakRecorder, "the subscription holds its subscriber while it lives")
        prefix.releaseSubscribers()
        suffix.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testConcatenateTurnsAwayThePrefixAfterItFinishedAndBeyondTheDemand() {
        let prefix = RecordingPublisher<Int, Never>()
        let suffix = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2), demandPerValue: { $0 == 1 ? .max(1) : .none })
        prefix.append(suffix).subscribe(recorder)
        XCTAssertEqual(prefix.send(1), [.max(1)])
        XCTAssertEqual(prefix.send(2), [.none])
        XCTAssertEqual(prefix.send(3), [.none])
        XCTAssertEqual(prefix.send(4), [.none], "beyond the demand: dropped, as in Combine")
        prefix.send(completion: .finished)
        XCTAssertEqual(suffix.subscription?.events, [])
        XCTAssertEqual(prefix.send(5), [.none], "the prefix has finished")
        XCTAssertEqual(suffix.send(6), [.none], "the suffix's values pass as they come")
        XCTAssertEqual(suffix.send(7), [.none])
        prefix.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .value(6), .value(7)])
        suffix.send(completion: .finished)
        XCTAssertEqual(recorder.events.last, .completion(.finished))
        prefix.releaseSubscribers()
        suffix.releaseSubscribers()
    }

    func testConcatenateSubscribesEachPublisherWithItsOwnSideIdentifiedAsTheSubscription() throws {
        let prefix = SubscriberCapture(), suffix = SubscriberCapture()
        let recorder = RecordingSubscriber<Int, Never>()
        prefix.append(suffix).subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)
        let prefixSide = try XCTUnwrap(prefix.subscribers.first)
        XCTAssertTrue(suffix.subscribers.isEmpty)
        prefixSide.receive(completion: .finished)
        let suffixSide = try XCTUnwrap(suffix.subscribers.first)
        XCTAssertEqual(prefixSide.combineIdentifier, subscription.combineIdentifier)
        XCTAssertEqual(suffixSide.combineIdentifier, subscription.combineIdentifier)
        XCTAssertTrue(type(of: prefixSide) != type(of: suffixSide))
        XCTAssertTrue(type(of: prefixSide) != type(of: subscription))
        recorder.cancel()
        prefix.subscribers = []
        suffix.subscribers = []
    }

    func testAppendAndPrependValuesSequencesAndSpecialisations() {
        let recorder = RecordingSubscriber<Int, Never>()
        Just(2).eraseToAnyPublisher().append(3, 4).prepend([0, 1]).subscribe(recorder)
        XCTAssertEqual(recorder.values, [0, 1, 2, 3, 4])
        XCTAssertEqual(recorder.completion, .finished)
        XCTAssertEqual([1, 2].publisher.append([3]).sequence, [1, 2, 3])
        XCTAssertEqual([2].publisher.prepend([1].publisher).sequence, [1, 2])
        XCTAssertEqual(Just(1).append(2, 3).sequence, [1, 2, 3])
        XCTAssertEqual(Just(3).prepend(1, 2).sequence, [1, 2, 3])
    }

    func testConcatenateIgnoresSignalsFromAPublisherBeforeItsSubscription() {
        let prefix = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        prefix.append(7).subscribe(recorder)
        XCTAssertEqual(prefix.subscriber?.receive(1), Subscribers.Demand.none)
        prefix.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [])

        let suffix = ManualPublisher<Int, Never>()
        let prepended = RecordingSubscriber<Int, Never>()
        suffix.prepend(Empty()).subscribe(prepended)
        XCTAssertEqual(suffix.subscriber?.receive(1), Subscribers.Demand.none)
        suffix.subscriber?.receive(completion: .finished)
        XCTAssertEqual(prepended.events, [.subscription])

        let subscription = RecordingSubscription()
        suffix.subscriber?.receive(subscription: subscription)
        XCTAssertEqual(suffix.subscriber?.receive(2), Subscribers.Demand.none)
        suffix.subscriber?.receive(completion: .finished)
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        XCTAssertEqual(prepended.events, [.subscription, .value(2), .completion(.finished)])
        prepended.cancel()
        prefix.release()
        suffix.release()
    }

    func testConcatenatePassesARequestForNoneOnToTheCurrentPublisher() {
        let prefix = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        prefix.append(Empty()).subscribe(recorder)
        recorder.request(.none)
        XCTAssertEqual(prefix.subscription?.events, [.requested(.max(2)), .requested(.none)])
        recorder.cancel()
        prefix.releaseSubscribers()
    }
}

/// A publisher that keeps each subscriber as it is given, unerased, and hands it an empty
/// subscription.
private final class SubscriberCapture: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    var subscribers: [any Subscriber<Int, Never>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscribers.append(subscriber)
        subscriber.receive(subscription: Subscriptions.empty)
    }
}
