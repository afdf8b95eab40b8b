import Tether
import TetherTesting
import XCTest

final class CatchTests: TetherTestCase {
    func testOnFailureTheReplacementIsSubscribedWithTheUnmetDemand() {
        let upstream = RecordingPublisher<Int, TestError>()
        let replacement = RecordingPublisher<Int, Never>()
        var caught: [TestError] = []
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(5), demandPerValue: { $0 == 2 ? .max(1) : .none })
        upstream.catch { error -> RecordingPublisher<Int, Never> in
            caught.append(error)
            return replacement
        }.subscribe(recorder)

        XCTAssertEqual(upstream.send(1), [.none])
        XCTAssertEqual(upstream.send(2), [.max(1)])
        recorder.request(.max(2))
        upstream.send(completion: .failure(TestError(id: 6)))
        XCTAssertEqual(replacement.subscription?.events, [.requested(.max(6))])
        recorder.request(.max(3))
        XCTAssertEqual(replacement.send(7), [.none])
        replacement.send(completion: .finished)

        XCTAssertEqual(caught, [TestError(id: 6)])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(7), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(5)), .requested(.max(2))])
        XCTAssertEqual(replacement.subscription?.events, [.requested(.max(6)), .requested(.max(3))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Catch"])
        upstream.releaseSubscribers()
        replacement.releaseSubscribers()
    }

    func testFinishedPassesThroughWithoutCallingTheHandler() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2].publisher.setFailureType(to: TestError.self).catch { _ -> Just<Int> in
            XCTFail("handler called")
            return Just(0)
        }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testASynchronousReplacementDeliversRightAway() {
        let recorder = RecordingSubscriber<Int, Never>()
        Fail<Int, TestError>(error: TestError(id: 1)).catch { Just($0.id * 100) }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(100), .completion(.finished)])
    }

    func testAfterACancelLaterValuesStillGoDownstreamAsInCombine() {
        let upstream = RecordingPublisher<Int, TestError>()
        let replacement = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1), demandPerValue: { _ in .max(3) })
        upstream.catch { _ in replacement }.subscribe(recorder)
        upstream.send(completion: .failure(TestError(id: 1)))
        recorder.cancel()
        XCTAssertEqual(replacement.send(3), [.max(3)])
        replacement.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(3)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(replacement.subscription?.events, [.requested(.max(1)), .cancelled])
        upstream.releaseSubscribers()
        replacement.releaseSubscribers()
    }

    func testACancelWhileTheReplacementSubscribesIsIgnored() {
        let upstream = RecordingPublisher<Int, TestError>()
        let replacement = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3))
        upstream.catch { _ in replacement }.subscribe(recorder)
        upstream.send(completion: .failure(TestError(id: 1)))
        recorder.cancel()
        let late = RecordingSubscription()
        replacement.subscriber?.receive(subscription: late)
        replacement.subscriber?.receive(completion: .finished)

        XCTAssertEqual(late.events, [.requested(.max(3))])
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        replacement.release()
        upstream.releaseSubscribers()
    }

    func testAValueWithoutDemandAndASecondFailureTrap() {
        let test = "TetherTests.CatchTests/testAValueWithoutDemandAndASecondFailureTrap"
        let value = ChildProcessTrap(test: test, id: "value").run {
            let upstream = RecordingPublisher<Int, TestError>()
            upstream.catch { _ in Just(0) }.subscribe(RecordingSubscriber<Int, Never>(demand: .none))
            _ = upstream.send(1)
        }
        let failure = ChildProcessTrap(test: test, id: "failure").run {
            let upstream = RecordingPublisher<Int, TestError>()
            upstream.catch { _ in Empty<Int, Never>(completeImmediately: false) }.subscribe(
                RecordingSubscriber<Int, Never>())
            upstream.send(completion: .failure(TestError(id: 1)))
            upstream.send(completion: .failure(TestError(id: 2)))
        }
        guard !ChildProcessTrap.isChildProcess else { return }
        guard case .trapped = value else { return XCTFail("a value without demand did not trap: \(value)") }
        guard case .trapped = failure else { return XCTFail("a second failure did not trap: \(failure)") }
    }

    func testTheMirrorShowsTheDownstreamAndTheUnmetDemand() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(4))
        upstream.catch { _ in Just(0) }.subscribe(recorder)
        _ = upstream.send(1)
        let mirror = Mirror(reflecting: recorder.subscription!)
        XCTAssertEqual(mirror.children.map { $0.label }, ["downstream", "demand"])
        XCTAssertEqual(mirror.children.map { "\($0.value)" }.last, "max(3)")
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testTheUpstreamsSubscriberIsTheSubscriptionAndTheReplacementsDescribesItselfAlike() throws {
        let upstream = ManualPublisher<Int, TestError>()
        let replacement = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        upstream.catch { _ in replacement }.subscribe(recorder)
        upstream.subscriber?.receive(subscription: RecordingSubscription())
        let subscription = upstream.given as? any Subscription
        XCTAssertEqual(subscription?.combineIdentifier, recorder.subscription?.combineIdentifier)
        upstream.subscriber?.receive(completion: .failure(TestError(id: 1)))

        let side = try XCTUnwrap(replacement.given)
        XCTAssertEqual((side as? any CustomStringConvertible)?.description, "Catch")
        XCTAssertEqual((side as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "Catch")
        let mirror = (side as? any CustomReflectable)?.customMirror
        XCTAssertEqual(mirror?.children.map { $0.label }, ["downstream", "demand"])
        XCTAssertEqual(mirror?.children.map { "\($0.value)" }.last, "max(2)")
        recorder.cancel()
        upstream.release()
        replacement.release()
    }

    func testRetryPassesOnACompletionBeforeTheSubscriptionWhileCatchIgnoresIt() {
        let retried = ManualPublisher<Int, TestError>()
        let retryRecorder = RecordingSubscriber<Int, TestError>()
        retried.retry(2).subscribe(retryRecorder)
        retried.subscriber?.receive(completion: .finished)
        XCTAssertEqual(retryRecorder.events, [.completion(.finished)])
        let late = RecordingSubscription()
        retried.subscriber?.receive(subscription: late)
        XCTAssertEqual(late.events, [.cancelled])
        retried.release()

        let failing = ManualPublisher<Int, TestError>()
        let failingRecorder = RecordingSubscriber<Int, TestError>()
        failing.retry(0).subscribe(failingRecorder)
        failing.subscriber?.receive(completion: .failure(TestError(id: 6)))
        XCTAssertEqual(failingRecorder.events, [.completion(.failure(TestError(id: 6)))])
        failing.release()

        let caught = ManualPublisher<Int, TestError>()
        let catchRecorder = RecordingSubscriber<Int, Never>()
        caught.catch { _ in Just(0) }.subscribe(catchRecorder)
        caught.subscriber?.receive(completion: .finished)
        caught.subscriber?.receive(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(catchRecorder.events, [])
        let subscription = RecordingSubscription()
        caught.subscriber?.receive(subscription: subscription)
        caught.subscriber?.receive(completion: .finished)
        XCTAssertEqual(catchRecorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        caught.release()
    }
}

final class TryCatchTests: TetherTestCase {
    func testAThrowingHandlerFailsWithTheThrownError() {
        let recorder = RecordingSubscriber<Int, any Error>()
        Fail<Int, TestError>(error: TestError(id: 1)).tryCatch { error -> Just<Int> in
            throw TestError(id: error.id + 1)
        }.subscribe(recorder)
        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(2)))"])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryCatch"])
    }

    func testAfterTheHandlerThrewUpstreamValuesStillGoDownstreamAsInCombine() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .unlimited)
        upstream.tryCatch { error -> Just<Int> in throw TestError(id: error.id + 1) }.subscribe(recorder)
        XCTAssertEqual(upstream.send(1), [.none])
        upstream.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(upstream.send(-1), [.none])
        upstream.send(completion: .failure(TestError(id: 1)))
        upstream.send(completion: .finished)

        XCTAssertEqual(
            recorder.history, [".subscription", ".value(1)", ".completion(.failure(TestError(2)))", ".value(-1)"])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.releaseSubscribers()
    }

    func testAReplacementTakesOverWithTheUnmetDemandAndItsFailureIsErased() {
        let upstream = RecordingPublisher<Int, TestError>()
        let replacement = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(3))
        upstream.tryCatch { _ in replacement }.subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .failure(TestError(id: 1)))
        replacement.send(2)
        replacement.send(completion: .failure(TestError(id: 5)))

        XCTAssertEqual(
            recorder.history, [".subscription", ".value(1)", ".value(2)", ".completion(.failure(TestError(5)))"])
        XCTAssertEqual(replacement.subscription?.events, [.requested(.max(2))])
        upstream.releaseSubscribers()
        replacement.releaseSubscribers()
    }
}

final class RetryTests: TetherTestCase {
    /// A fresh recording publisher for each subscription, so each attempt is driven alone.
    private func attempts(_ count: Int) -> (
        [RecordingPublisher<Int, TestError>], Deferred<RecordingPublisher<Int, TestError>>
    ) {
        let publishers = (0..<count).map { _ in RecordingPublisher<Int, TestError>() }
        let next = AtomicCounter()
        return (publishers, Deferred { publishers[next.increment() - 1] })
    }

    func testResubscribesUpToTheGivenNumberOfTimesCarryingOverUnmetDemand() {
        let (sources, upstream) = attempts(3)
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(4))
        upstream.retry(2).subscribe(recorder)

        sources[0].send(1)
        sources[0].send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(sources[1].send(2), [.none])
        recorder.request(.max(2))
        sources[1].send(completion: .failure(TestError(id: 2)))
        sources[2].send(completion: .failure(TestError(id: 3)))

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 3)))])
        XCTAssertEqual(sources[0].subscription?.events, [.requested(.max(4))])
        XCTAssertEqual(sources[1].subscription?.events, [.requested(.max(3)), .requested(.max(2))])
        XCTAssertEqual(sources[2].subscription?.events, [.requested(.max(4))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Retry"])
    }

    func testCancelCancelsTheCurrentAttemptOnly() {
        let (sources, upstream) = attempts(2)
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        upstream.retry(5).subscribe(recorder)
        sources[0].send(completion: .failure(TestError(id: 1)))
        recorder.cancel()
        sources[1].send(4)

        XCTAssertEqual(recorder.events, [.subscription])
        XCTAssertEqual(sources[0].subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(sources[1].subscription?.events, [.requested(.max(1)), .cancelled])
    }

    func testASynchronouslyFailingUpstreamIsRetriedWithoutGrowingTheStack() {
        let attempts = AtomicCounter()
        let recorder = RecordingSubscriber<Int, TestError>()
        Deferred { Fail<Int, TestError>(error: TestError(id: attempts.increment())) }
            .retry(50_000)
            .subscribe(recorder)

        XCTAssertEqual(attempts.value, 50_001)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 50_001)))])
    }

    func testNilRetriesKeepGoingUntilTheUpstreamSucceeds() {
        let attempts = AtomicCounter()
        let upstream = Deferred { () -> AnyPublisher<Int, TestError> in
            let attempt = attempts.increment()
            if attempt < 10 { return Fail(error: TestError(id: attempt)).eraseToAnyPublisher() }
            return Just(attempt).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        let recorder = RecordingSubscriber<Int, TestError>()
        Publishers.Retry(upstream: upstream, retries: nil).subscribe(recorder)

        XCTAssertEqual(recorder.events, [.subscription, .value(10), .completion(.finished)])
    }

    func testDemandReturnedForAValueIsRequestedFromTheUpstreamAsInCombine() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3), demandPerValue: { .max($0) })
        upstream.retry(5).subscribe(recorder)
        XCTAssertEqual(upstream.send(5), [.none])

        XCTAssertEqual(recorder.events, [.subscription, .value(5)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(3)), .requested(.max(5))])
        recorder.cancel()
    }

    func testANegativeNumberOfRetriesNeverRunsOutAsInCombine() {
        let attempts = AtomicCounter()
        let upstream = Deferred { () -> AnyPublisher<Int, TestError> in
            let attempt = attempts.increment()
            if attempt < 100 { return Fail(error: TestError(id: attempt)).eraseToAnyPublisher() }
            return Just(attempt).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }
        let recorder = RecordingSubscriber<Int, TestError>()
        Publishers.Retry(upstream: upstream, retries: -1).subscribe(recorder)

        XCTAssertEqual(recorder.events, [.subscription, .value(100), .completion(.finished)])
    }

    func testTheUpstreamsSubscriberIsTheDownstreamsSubscription() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.retry(1).subscribe(recorder)
        let subscription = upstream.given as? any Subscription
        XCTAssertNotNil(subscription)
        subscription?.cancel()
        let late = RecordingSubscription()
        upstream.subscriber?.receive(subscription: late)
        XCTAssertEqual(late.events, [.cancelled])
        XCTAssertEqual(recorder.events, [])
        upstream.release()
    }

    func testZeroRetriesPassTheFirstFailureThrough() {
        let recorder = RecordingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(id: 8)).retry(0).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 8)))])
    }
}

final class AssertNoFailureTests: TetherTestCase {
    func testValuesAndFinishedPassThroughAsNever() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        let publisher:
            Publishers.AssertNoFailure<Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, TestError>> =
                [1, 2].publisher.setFailureType(to: TestError.self).assertNoFailure("boom")
        publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(publisher.prefix, "boom")
        XCTAssertEqual(publisher.line, #line - 4)
    }

    func testAFailureTraps() {
        let trap = ChildProcessTrap(test: "TetherTests.AssertNoFailureTests/testAFailureTraps", id: "failure")
        let outcome = trap.run {
            let recorder = RecordingSubscriber<Int, Never>()
            Fail<Int, TestError>(error: TestError(id: 1)).assertNoFailure("prefix").subscribe(recorder)
        }
        guard case .trapped = outcome else { return XCTFail("did not trap: \(outcome)") }
    }

    func testTheRelayDescribesItselfWithFileLineAndPrefix() {
        let probe = DescribingPublisher<Int, TestError>()
        probe.assertNoFailure("p", file: "f.swift", line: 3).subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(probe.seen.description, "AssertNoFailure")
        XCTAssertEqual(probe.seen.mirrorLabels, ["file", "line", "prefix"])
    }
}

final class SetFailureTypeTests: TetherTestCase {
    func testTheSubscriptionIsTheUpstreamsAndFinishedPassesThrough() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2))
        let publisher: Publishers.SetFailureType<RecordingPublisher<Int, Never>, any Error> =
            upstream.setFailureType(to: TestError.self).setFailureType(to: (any Error).self)
        _ = publisher
        upstream.setFailureType(to: TestError.self).subscribe(recorder)
        XCTAssertEqual(upstream.send(1), [.none])
        upstream.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["RecordingSubscription"])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(
            [1].publisher.setFailureType(to: TestError.self).setFailureType(to: TestError.self),
            [1].publisher.setFailureType(to: TestError.self))
    }
}
