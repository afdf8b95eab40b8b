import Tether
import TetherTesting
import XCTest

final class CollectAndReplaceTests: TetherTestCase {
    func testCollectByCountMultipliesDemandByCountAndFlushesThePartialBufferOnFinish() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<[Int], Never>(demand: .max(2), demandPerValue: { _ in .max(1) })
        publisher.collect(3).subscribe(recorder)
        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.none])
        XCTAssertEqual(publisher.send(3), [.max(3)])
        XCTAssertEqual(publisher.send(4), [.none])
        publisher.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2, 3]), .value([4]), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(6))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["CollectByCount"])
        publisher.releaseSubscribers()
    }

    func testCollectByCountDropsTheBufferOnFailure() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<[Int], TestError>()
        publisher.collect(2).subscribe(recorder)
        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 1)))
        publisher.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        publisher.releaseSubscribers()
    }

    func testCollectByCountCancelReleasesDownstreamAndCancelsUpstream() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<[Int], Never>?
        do {
            let recorder = RecordingSubscriber<[Int], Never>(demand: .max(1))
            weakRecorder = recorder
            publisher.collect(2).subscribe(recorder)
            publisher.send(1)
            recorder.cancel()
            XCTAssertEqual(publisher.send(2), [.none])
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2)), .cancelled])
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testReplaceEmptyPublishesTheElementWhenUpstreamFinishesEmpty() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        publisher.replaceEmpty(with: 9).subscribe(recorder)
        publisher.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(9), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["ReplaceEmpty"])
        publisher.releaseSubscribers()
    }

    func testReplaceEmptyWaitsForDemandBeforeTheSubstitute() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Empty<Int, Never>().replaceEmpty(with: 9).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(9), .completion(.finished)])
    }

    func testReplaceEmptyPassesValuesAndFailuresThrough() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2), demandPerValue: { _ in .max(1) })
        publisher.replaceEmpty(with: 9).subscribe(recorder)
        XCTAssertEqual(publisher.send(1), [.max(1)])
        publisher.send(completion: .finished)
        let failing = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 2)).replaceEmpty(with: 9).subscribe(failing)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(failing.events, [.subscription, .completion(.failure(TestError(id: 2)))])
        publisher.releaseSubscribers()
    }

    func testReplaceErrorSubstitutesTheElementWhenDemandIsOutstanding() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        publisher.replaceError(with: -1).subscribe(recorder)
        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(-1), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["ReplaceError"])
        publisher.releaseSubscribers()
    }

    func testReplaceErrorWithNoOutstandingDemandWaitsForTheNextRequest() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        publisher.replaceError(with: -1).subscribe(recorder)
        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(-1), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
        publisher.releaseSubscribers()
    }

    func testReplaceErrorCancelWhileWaitingKeepsTheSubscriberAsInCombine() {
        let publisher = RecordingPublisher<Int, TestError>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            weakRecorder = recorder
            publisher.replaceError(with: -1).subscribe(recorder)
            publisher.send(completion: .failure(TestError(id: 1)))
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertNotNil(weakRecorder)
        XCTAssertEqual(publisher.subscription?.events, [])
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testReplaceEmptyCancelCancelsUpstreamAndKeepsTheSubscriberAsInCombine() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            publisher.replaceEmpty(with: 9).subscribe(recorder)
            recorder.cancel()
            publisher.send(completion: .finished)
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertNotNil(weakRecorder)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testReplaceEmptyAsksItsUpstreamForEverythingAndDeliversWhateverTheDemand() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        publisher.replaceEmpty(with: 9).subscribe(recorder)
        (publisher.given as? any Subscription)?.cancel()
        let subscription = RecordingSubscription()
        publisher.subscriber?.receive(subscription: subscription)
        XCTAssertEqual(publisher.subscriber?.receive(1), Subscribers.Demand.none)
        XCTAssertEqual(publisher.subscriber?.receive(2), Subscribers.Demand.none)
        publisher.subscriber?.receive(completion: .finished)
        publisher.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        publisher.release()
    }

    func testReplaceErrorTurnsValuesAwayOnceTheDownstreamCancelledEvenFromInsideADelivery() {
        let publisher = ManualPublisher<Int, TestError>()
        var recorder: RecordingSubscriber<Int, Never>?
        recorder = RecordingSubscriber<Int, Never>(demand: .unlimited) { value in
            if value == 2 { recorder?.cancel() }
            return .max(1)
        }
        publisher.replaceError(with: 9).subscribe(recorder!)
        let subscription = RecordingSubscription()
        publisher.subscriber?.receive(subscription: subscription)
        let returned = [1, 2, 3].map { publisher.subscriber?.receive($0) }
        publisher.subscriber?.receive(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(returned, [.max(1), Subscribers.Demand.none, Subscribers.Demand.none])
        XCTAssertEqual(recorder?.events, [.subscription, .value(1), .value(2)])
        XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
        recorder = nil
        publisher.release()
    }

    func testReplaceErrorTurnsValuesAwayAfterTheUpstreamFinished() {
        let publisher = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .unlimited) { _ in .max(1) }
        publisher.replaceError(with: 9).subscribe(recorder)
        publisher.subscriber?.receive(subscription: RecordingSubscription())
        let first = publisher.subscriber?.receive(1)
        publisher.subscriber?.receive(completion: .finished)
        let late = publisher.subscriber?.receive(2)
        XCTAssertEqual([first, late], [.max(1), Subscribers.Demand.none])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        publisher.release()
    }

    func testReplaceErrorTrapsOnAValueWithoutDemand() {
        let trap = ChildProcessTrap(
            test: "TetherTests.CollectAndReplaceTests/testReplaceErrorTrapsOnAValueWithoutDemand", id: "value")
        let outcome = trap.run {
            let publisher = RecordingPublisher<Int, TestError>()
            publisher.replaceError(with: 0).subscribe(RecordingSubscriber<Int, Never>(demand: .none))
            _ = publisher.send(1)
        }
        guard !ChildProcessTrap.isChildProcess else { return }
        guard case .trapped = outcome else { return XCTFail("did not trap: \(outcome)") }
    }

    func testReplaceErrorAndReplaceEmptyAreEquatable() {
        // Just's own replaceEmpty/replaceError return the Just itself, as in Combine, so the
        // wrappers are built directly.
        XCTAssertEqual(
            Publishers.ReplaceEmpty(upstream: Just(1), output: 2), Publishers.ReplaceEmpty(upstream: Just(1), output: 2)
        )
        XCTAssertNotEqual(
            Publishers.ReplaceError(upstream: Just(1), output: 2), Publishers.ReplaceError(upstream: Just(1), output: 3)
        )
    }

    func testReplacingOperatorsIgnoreSignalsAndACancelBeforeTheSubscription() {
        func check(
            _ name: String, asks expected: [SubscriptionEvent],
            _ make: (ManualPublisher<Int, TestError>) -> AnyPublisher<Int, Never>
        ) {
            let publisher = ManualPublisher<Int, TestError>()
            let recorder = RecordingSubscriber<Int, Never>()
            make(publisher).subscribe(recorder)
            let demand = publisher.signalBeforeSubscription(1, .failure(TestError(id: 1)))
            XCTAssertEqual(demand, Subscribers.Demand.none, name)
            XCTAssertEqual(recorder.events, [], name)
            XCTAssertEqual(publisher.subscribeAndFinish(), expected, name)
            XCTAssertEqual(recorder.events, [.subscription, .value(9), .completion(.finished)], name)
            publisher.release()
        }
        check("ReplaceError", asks: [.requested(.unlimited)]) {
            $0.replaceError(with: 9).append(9).eraseToAnyPublisher()
        }
        // The subscriber's request, then the operator's own, as Combine's.
        check("ReplaceEmpty", asks: [.requested(.unlimited), .requested(.unlimited)]) {
            $0.replaceEmpty(with: 9).replaceError(with: 0).eraseToAnyPublisher()
        }
    }
}
