import Tether
import TetherTesting
import XCTest

final class SwitchToLatestTests: TetherTestCase {
    func testANewInnerCancelsThePreviousOneAndGetsTheOutstandingDemand() {
        let outer = RecordingPublisher<RecordingPublisher<Int, TestError>, TestError>()
        let first = RecordingPublisher<Int, TestError>()
        let second = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3))
        outer.switchToLatest().subscribe(recorder)

        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited)])
        outer.send(first)
        XCTAssertEqual(first.send(1), [.none])
        outer.send(second)
        XCTAssertEqual(first.send(2), [.none])
        recorder.request(.max(5))
        XCTAssertEqual(second.send(3), [.none])
        outer.send(completion: .finished)
        XCTAssertNil(recorder.completion)
        second.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3), .completion(.finished)])
        XCTAssertEqual(first.subscription?.events, [.requested(.max(3)), .cancelled])
        XCTAssertEqual(second.subscription?.events, [.requested(.max(2)), .requested(.max(5))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["SwitchToLatest"])
    }

    func testTheSubscriberIsSubscribedBeforeTheUpstreamsSubscriptionArrives() {
        let outer = ManualPublisher<Just<Int>, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        outer.switchToLatest().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        let subscription = RecordingSubscription()
        outer.subscriber?.receive(subscription: subscription)
        outer.subscriber?.receive(subscription: RecordingSubscription())
        _ = outer.subscriber?.receive(Just(4))
        outer.subscriber?.receive(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(4), .completion(.finished)])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        outer.release()
    }

    func testTheDemandReturnedForAValueGoesBackToTheInnerAndIsCountedAsInCombine() {
        let outer = RecordingPublisher<RecordingPublisher<Int, Never>, Never>()
        let first = RecordingPublisher<Int, Never>()
        let second = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1)) { _ in .max(5) }
        outer.switchToLatest().subscribe(recorder)
        outer.send(first)
        XCTAssertEqual(first.send(1), [.max(5)])
        outer.send(second)

        XCTAssertEqual(first.subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(second.subscription?.events, [.requested(.max(5))])
        recorder.cancel()
        outer.releaseSubscribers()
        first.releaseSubscribers()
        second.releaseSubscribers()
    }

    func testAfterTheUpstreamFailsTheInnersValuesStillArriveAsInCombine() {
        let outer = RecordingPublisher<RecordingPublisher<Int, TestError>, TestError>()
        let inner = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        outer.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(inner.send(7), [.none])
        inner.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1))), .value(7)])
        XCTAssertEqual(inner.subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited)])
        outer.releaseSubscribers()
        inner.releaseSubscribers()
    }

    func testAnInnerValueWithoutDemandAndAnInnerCompletionBeforeItsSubscriptionTrap() {
        let test =
            "TetherTests.SwitchToLatestTests/testAnInnerValueWithoutDemandAndAnInnerCompletionBeforeItsSubscriptionTrap"
        let value = ChildProcessTrap(test: test, id: "value").run {
            let outer = RecordingPublisher<RecordingPublisher<Int, Never>, Never>()
            let inner = RecordingPublisher<Int, Never>()
            outer.switchToLatest().subscribe(RecordingSubscriber<Int, Never>(demand: .none))
            outer.send(inner)
            _ = inner.send(1)
        }
        let completion = ChildProcessTrap(test: test, id: "completion").run {
            let outer = RecordingPublisher<ManualPublisher<Int, Never>, Never>()
            let inner = ManualPublisher<Int, Never>()
            outer.switchToLatest().subscribe(RecordingSubscriber<Int, Never>())
            outer.send(inner)
            inner.subscriber?.receive(completion: .finished)
        }
        guard !ChildProcessTrap.isChildProcess else { return }
        guard case .trapped = value else { return XCTFail("a value without demand did not trap: \(value)") }
        guard case .trapped = completion else { return XCTFail("an early completion did not trap: \(completion)") }
    }

    func testFinishesOnlyWhenUpstreamAndCurrentInnerHaveFinished() {
        let outer = RecordingPublisher<Just<Int>, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(Just(1))
        outer.send(Just(2))
        XCTAssertNil(recorder.completion)
        outer.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testAnInnerFailureCancelsTheUpstream() {
        let outer = RecordingPublisher<Fail<Int, TestError>, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        outer.switchToLatest().subscribe(recorder)
        outer.send(Fail(error: TestError(id: 2)))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 2)))])
        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testCancelCancelsUpstreamAndCurrentInner() {
        let outer = RecordingPublisher<RecordingPublisher<Int, Never>, Never>()
        let inner = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        outer.switchToLatest().subscribe(recorder)
        outer.send(inner)
        recorder.cancel()
        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(inner.subscription?.events, [.cancelled])
    }

    func testEveryFailureCombinationPicksCombinesReturnType() {
        let same: Publishers.SwitchToLatest<Fail<Int, TestError>, Just<Fail<Int, TestError>>.SetFailure> =
            Just(Fail<Int, TestError>(error: TestError(id: 1))).setFailureType(to: TestError.self).switchToLatest()
        let upstreamNever:
            Publishers.SwitchToLatest<
                Fail<Int, TestError>,
                Publishers.SetFailureType<PassthroughSubject<Fail<Int, TestError>, Never>, TestError>
            > = PassthroughSubject<Fail<Int, TestError>, Never>().switchToLatest()
        let bothNever: Publishers.SwitchToLatest<Just<Int>, PassthroughSubject<Just<Int>, Never>> =
            PassthroughSubject<Just<Int>, Never>().switchToLatest()
        let innerNever:
            Publishers.SwitchToLatest<
                Publishers.SetFailureType<Just<Int>, TestError>,
                Publishers.Map<
                    PassthroughSubject<Just<Int>, TestError>, Publishers.SetFailureType<Just<Int>, TestError>
                >
            > = PassthroughSubject<Just<Int>, TestError>().switchToLatest()

        let recorder = RecordingSubscriber<Int, TestError>()
        same.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        let subject = innerNever.upstream.upstream
        let second = RecordingSubscriber<Int, TestError>()
        innerNever.subscribe(second)
        subject.send(Just(4))
        subject.send(completion: .finished)
        XCTAssertEqual(second.events, [.subscription, .value(4), .completion(.finished)])
        _ = (upstreamNever, bothNever)
    }
}

extension Just {
    /// The type `setFailureType(to:)` gives a `Just` here, spelled once for the test above.
    fileprivate typealias SetFailure = Publishers.SetFailureType<Self, TestError>
}
