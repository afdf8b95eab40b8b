import Tether
import TetherTesting
import XCTest

final class OutputDropTests: TetherTestCase {
    func testPrefixPassesRequestsOnAndFinishesAfterTheLastElement() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .unlimited)
        publisher.prefix(2).subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.none])
        XCTAssertEqual(publisher.send(3), [.none])

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Output"])
    }

    func testPrefixPassesReturnedDemandAndLaterRequestsOn() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { _ in .max(5) })
        publisher.prefix(3).subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.max(5)])
        recorder.request(.max(4))

        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .requested(.max(4))])
        recorder.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .requested(.max(4)), .cancelled])
    }

    func testPrefixZeroFinishesAtOnceAndCancelsUpstream() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        publisher.prefix(0).subscribe(recorder)

        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testOutputCountsAndDeliversValuesBeforeTheSubscriptionAndAfterTheEnd() {
        let publisher = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none, demandPerValue: { _ in .max(3) })
        publisher.output(in: 1..<4).subscribe(recorder)
        publisher.subscriber?.receive(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(publisher.subscriber?.receive(10), .max(1))
        XCTAssertEqual(publisher.subscriber?.receive(11), .max(3))
        let subscription = RecordingSubscription()
        publisher.subscriber?.receive(subscription: subscription)
        recorder.cancel()
        XCTAssertEqual(publisher.subscriber?.receive(12), .max(3))
        XCTAssertEqual(publisher.subscriber?.receive(13), .max(3))
        XCTAssertEqual(publisher.subscriber?.receive(14), Subscribers.Demand.none)
        publisher.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [.value(11), .subscription, .value(12), .value(13)])
        XCTAssertEqual(subscription.events, [.cancelled])
        publisher.release()
    }

    func testOutputAtDropsEarlierElementsWithReplacementDemandThenCancels() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        publisher.output(at: 2).subscribe(recorder)

        XCTAssertEqual(publisher.send(10), [.max(1)])
        XCTAssertEqual(publisher.send(11), [.max(1)])
        XCTAssertEqual(publisher.send(12), [.none])
        XCTAssertEqual(publisher.send(13), [.none])

        XCTAssertEqual(recorder.events, [.subscription, .value(12), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .cancelled])
    }

    func testOutputInRangeOnSequence() {
        let recorder = RecordingSubscriber<Int, Never>()
        (0..<10).publisher.output(in: 3...5).subscribe(recorder)
        XCTAssertEqual(recorder.values, [3, 4, 5])
        XCTAssertEqual(recorder.completion, .finished)
    }

    func testDropFirstRequestsCountExtraOnTheFirstRequestOnly() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        publisher.dropFirst(2).subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.none])
        XCTAssertEqual(publisher.send(3), [.none])
        recorder.request(.max(2))
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(3)), .requested(.max(2))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Drop"])
    }

    func testDropGathersRequestsUntilTheUpstreamSubscribesAndLetsGoOfItOnCompletion() {
        let publisher = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(10), demandPerValue: { _ in .max(3) })
        publisher.dropFirst(2).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        XCTAssertEqual(publisher.subscriber?.receive(1), Subscribers.Demand.none)
        let first = RecordingSubscription()
        publisher.subscriber?.receive(subscription: first)
        let second = RecordingSubscription()
        publisher.subscriber?.receive(subscription: second)
        XCTAssertEqual(publisher.subscriber?.receive(2), Subscribers.Demand.none)
        XCTAssertEqual(publisher.subscriber?.receive(3), .max(3))
        publisher.subscriber?.receive(completion: .finished)
        publisher.subscriber?.receive(completion: .failure(TestError(id: 1)))
        let drop = publisher.given as? any Subscription
        drop?.cancel()
        drop?.request(.max(4))
        drop?.request(.max(5))
        let third = RecordingSubscription()
        publisher.subscriber?.receive(subscription: third)
        XCTAssertEqual(publisher.subscriber?.receive(4), .max(3))
        XCTAssertEqual(
            recorder.events,
            [
                .subscription, .value(3), .completion(.finished), .completion(.failure(TestError(id: 1))), .value(4),
            ])
        XCTAssertEqual(first.events, [.requested(.max(11))])
        XCTAssertEqual(second.events, [.cancelled])
        XCTAssertEqual(third.events, [.requested(.max(9))])
        publisher.release()
    }

    func testDropPassesOnSignalsThatComeBeforeTheSubscription() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none, demandPerValue: { _ in .max(4) })
        publisher.dropFirst(0).subscribe(recorder)
        XCTAssertEqual(publisher.subscriber?.receive(1), .max(4))
        publisher.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        publisher.release()
    }

    func testDropCancelLetsGoOfTheUpstreamOnce() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        publisher.dropFirst().subscribe(recorder)
        recorder.cancel()
        recorder.request(.unlimited)
        recorder.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription])
        publisher.releaseSubscribers()
    }

    func testDropWhileReplacesDroppedElementsAndStopsAskingAfterFalse() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        var calls = 0
        publisher.drop { value in
            calls += 1; return value < 3
        }.subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.max(1)])
        XCTAssertEqual(publisher.send(3), [.none])
        XCTAssertEqual(publisher.send(1), [.none])

        XCTAssertEqual(recorder.events, [.subscription, .value(3), .value(1)])
        XCTAssertEqual(calls, 2)
        XCTAssertEqual(recorder.subscriptionDescriptions, ["DropWhile"])
        recorder.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2)), .cancelled])
    }

    func testTryDropWhileThrowCancelsAndFails() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryDrop { _ in throw TestError(id: 9) }.subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.none])

        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(9)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryDropWhile"])
    }

    func testPrefixWhileFinishesOnFirstRejectedElement() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3))
        publisher.prefix { $0 < 3 }.subscribe(recorder)

        publisher.send(1)
        publisher.send(5)
        publisher.send(2)

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(3)), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["PrefixWhile"])
    }

    func testTryPrefixWhileRepublishesUpstreamFailureAsAnyError() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryPrefix { $0 < 3 }.subscribe(recorder)

        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 1)))

        XCTAssertEqual(recorder.history, [".subscription", ".value(1)", ".completion(.failure(TestError(1)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryPrefixWhile"])
    }

    func testReleasesDownstreamAndClosureOnCancelAndOnFinish() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            publisher.prefix { [token] _ in
                _ = token; return false
            }.subscribe(recorder)
            publisher.send(1)
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNil(weakToken)
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testSpecialisationsComputeRightAway() {
        let dropped: Publishers.Sequence<DropFirstSequence<[Int]>, Never> = [1, 2, 3].publisher.dropFirst()
        XCTAssertEqual(Array(dropped.sequence), [2, 3])
        let prefix: Publishers.Sequence<PrefixSequence<[Int]>, Never> = [1, 2, 3].publisher.prefix(2)
        XCTAssertEqual(Array(prefix.sequence), [1, 2])
        XCTAssertEqual(Just(1).dropFirst().output, nil)
        XCTAssertEqual(Just(1).prefix(1).output, 1)
        XCTAssertEqual(Just(1).output(at: 0).output, 1)
        XCTAssertEqual(Just(1).output(in: 1...).output, nil)
        XCTAssertEqual(Just(1).drop { $0 == 1 }.output, nil)
        XCTAssertEqual(Optional(4).publisher.output(at: 0).output, 4)
        XCTAssertEqual(Optional(4).publisher.drop { $0 > 5 }.output, 4)
    }

    func testSignalsAndACancelBeforeTheSubscriptionAreIgnored() {
        func check<P: Publisher>(_ name: String, _ make: (ManualPublisher<Int, Never>) -> P)
        where P.Output == Int, P.Failure == Never {
            let publisher = ManualPublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            make(publisher).subscribe(recorder)
            XCTAssertEqual(publisher.signalBeforeSubscription(1, .finished), Subscribers.Demand.none, name)
            XCTAssertEqual(recorder.events, [], name)
            XCTAssertEqual(publisher.subscribeAndFinish(), [.requested(.unlimited)], name)
            XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)], name)
            publisher.release()
        }
        check("DropWhile") { $0.drop { _ in true } }
        check("TryDropWhile") { $0.tryDrop { _ in true }.catch { _ in Empty() } }
    }
}
