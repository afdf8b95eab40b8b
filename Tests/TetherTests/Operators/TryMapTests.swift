import Tether
import TetherTesting
import XCTest

final class TryMapTests: TetherTestCase {
    func testThrowCancelsUpstreamOnceAndFailsDownstreamEachTimeValuesStillGoThrough() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        var calls = 0
        publisher.tryMap { value -> Int in
            calls += 1
            if value == 2 { throw TestError(id: 2) }
            return value * 10
        }.subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.none])
        XCTAssertEqual(publisher.send(3), [.none])
        XCTAssertEqual(publisher.send(2), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(
            recorder.history,
            [
                ".subscription", ".value(10)", ".completion(.failure(TestError(2)))", ".value(30)",
                ".completion(.failure(TestError(2)))",
            ])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryMap"])
        XCTAssertEqual(calls, 4)
    }

    func testRequestsAndReturnedDemandPassThroughUnchanged() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(2), demandPerValue: { _ in .max(3) })
        publisher.tryMap { $0 + 1 }.subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.max(3)])
        recorder.request(.max(5))

        XCTAssertEqual(recorder.history, [".subscription", ".value(2)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2)), .requested(.max(5))])
        recorder.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2)), .requested(.max(5)), .cancelled])
    }

    func testUpstreamFailureIsRepublishedAsAnyErrorWithoutCancellingUpstreamLaterValuesStillGoThrough() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryMap { $0 }.subscribe(recorder)

        publisher.send(completion: .failure(TestError(id: 7)))
        XCTAssertEqual(publisher.send(5), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(7)))", ".value(5)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
    }

    func testFinishedIsForwardedOnceAndLaterValuesStillGoThrough() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        var calls = 0
        publisher.tryMap { value -> Int in
            calls += 1; return value
        }.subscribe(recorder)

        publisher.send(1)
        publisher.send(completion: .finished)
        XCTAssertEqual(publisher.send(2), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.history, [".subscription", ".value(1)", ".completion(.finished)", ".value(2)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(calls, 2)
    }

    func testCancelCancelsUpstreamOnceIgnoresLaterRequestsAndCompletionsButNotValues() throws {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(1))
        publisher.tryMap { $0 }.subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)

        subscription.cancel()
        subscription.request(.max(4))
        subscription.cancel()
        XCTAssertEqual(publisher.send(1), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.history, [".subscription", ".value(1)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .cancelled])
        recorder.cancel()
    }

    func testCancelFromInsideReceiveCancelsUpstreamAndTheDownstreamsDemandStillGoesBack() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>(demandPerValue: { _ in .max(1) })
        let canceller = AnySubscriber<Int, any Error>(
            receiveSubscription: { recorder.receive(subscription: $0) },
            receiveValue: { value in
                let demand = recorder.receive(value)
                recorder.cancel()
                return demand
            },
            receiveCompletion: { recorder.receive(completion: $0) })
        publisher.tryMap { $0 * 2 }.subscribe(canceller)

        XCTAssertEqual(publisher.send(1), [.max(1)])
        XCTAssertEqual(publisher.send(2), [.max(1)])

        XCTAssertEqual(recorder.history, [".subscription", ".value(2)", ".value(4)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testSecondSubscriptionIsCancelledAndTheFirstKeepsWorking() throws {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(1))
        publisher.tryMap { $0 }.subscribe(recorder)
        let relay = try XCTUnwrap(publisher.subscriber)
        let first = RecordingSubscription()
        let second = RecordingSubscription()

        relay.receive(subscription: first)
        relay.receive(subscription: second)
        XCTAssertEqual(relay.receive(4), .none)

        XCTAssertEqual(recorder.history, [".subscription", ".value(4)"])
        XCTAssertEqual(first.events, [.requested(.max(1))])
        XCTAssertEqual(second.events, [.cancelled])
        recorder.cancel()
        XCTAssertEqual(first.events, [.requested(.max(1)), .cancelled])
        publisher.release()
    }

    func testHoldsDownstreamAndClosureAfterCancelWhileUpstreamStillHoldsTheRelay() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, any Error>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, any Error>()
            weakRecorder = recorder
            publisher.tryMap { [token] value in
                _ = token; return value
            }.subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNotNil(weakToken, "values after the cancel still go through the closure")
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
        XCTAssertNil(weakToken)
    }

    func testHoldsDownstreamAndClosureAfterAThrowAndAfterCompletionForTheRelaysLife() {
        for throwsError in [true, false] {
            let publisher = RecordingPublisher<Int, Never>()
            weak var weakRecorder: RecordingSubscriber<Int, any Error>?
            weak var weakToken: Token?
            var subscription: (any Subscription)?
            do {
                let token = Token()
                weakToken = token
                let recorder = RecordingSubscriber<Int, any Error>()
                weakRecorder = recorder
                publisher.tryMap { [token] value -> Int in
                    _ = token
                    if throwsError { throw TestError() }
                    return value
                }.subscribe(recorder)
                subscription = recorder.subscription
                if throwsError {
                    publisher.send(1)
                } else {
                    publisher.send(completion: .finished)
                }
            }
            XCTAssertNotNil(subscription, "the test holds the relay on purpose")
            XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it; throws: \(throwsError)")
            XCTAssertNotNil(weakToken, "throws: \(throwsError)")
            subscription = nil
            publisher.releaseSubscribers()
            XCTAssertNil(weakRecorder, "throws: \(throwsError)")
            XCTAssertNil(weakToken, "throws: \(throwsError)")
        }
    }

    func testMapThenTryMapFusesIntoOneTryMap() {
        let publisher = RecordingPublisher<Int, Never>()
        let fused: Publishers.TryMap<RecordingPublisher<Int, Never>, String> =
            publisher
            .map { $0 + 1 }
            .tryMap { value -> String in
                if value > 3 { throw TestError(id: value) }
                return "#\(value)"
            }
        XCTAssertTrue(fused.upstream === publisher)
        let recorder = RecordingSubscriber<String, any Error>()
        fused.subscribe(recorder)
        publisher.send(1)
        publisher.send(3)
        XCTAssertEqual(recorder.history, [".subscription", ".value(#2)", ".completion(.failure(TestError(4)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testTryMapThenMapAndTryMapFuseIntoOneTryMap() {
        let publisher = RecordingPublisher<Int, Never>()
        let mapped: Publishers.TryMap<RecordingPublisher<Int, Never>, Int> =
            publisher
            .tryMap { $0 * 2 }
            .map { $0 + 1 }
        let fused: Publishers.TryMap<RecordingPublisher<Int, Never>, String> =
            mapped
            .tryMap { value -> String in
                if value == 7 { throw TestError(id: 7) }
                return String(value)
            }
        XCTAssertTrue(fused.upstream === publisher)
        let recorder = RecordingSubscriber<String, any Error>()
        fused.subscribe(recorder)
        publisher.send(1)
        publisher.send(3)
        publisher.send(4)
        XCTAssertEqual(
            recorder.history, [".subscription", ".value(3)", ".completion(.failure(TestError(7)))", ".value(9)"])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryMap"])
    }

    func testDescriptionAndMirror() throws {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .none)
        publisher.tryMap { $0 }.subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)
        XCTAssertEqual(String(describing: subscription), "TryMap")
        XCTAssertEqual(Mirror(reflecting: subscription).children.count, 0)
        XCTAssertEqual(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String, "TryMap")
        recorder.cancel()
    }

    func testCancelRacingWithValuesKeepsDeliveryInOrderWithoutACompletion() {
        for _ in 0..<50 {
            let publisher = RecordingPublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, any Error>()
            publisher.tryMap { $0 }.subscribe(recorder)
            DispatchQueueStandIn.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<200 { publisher.send(value) }
                } else {
                    recorder.cancel()
                }
            }
            let values = recorder.values
            XCTAssertEqual(values, Array(0..<values.count))
            XCTAssertNil(recorder.completion)
            XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
            XCTAssertEqual(publisher.send(1_000), [.none])
            XCTAssertEqual(recorder.values, Array(0..<200) + [1_000])
        }
    }

    func testTryMapAndTryScanForwardValuesBeforeTheSubscriptionAndIgnoreTheRest() {
        func check(_ name: String, _ make: (ManualPublisher<Int, Never>) -> AnyPublisher<Int, any Error>) {
            let publisher = ManualPublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, any Error>(demand: .max(3)) { _ in .max(2) }
            make(publisher).subscribe(recorder)
            XCTAssertEqual(publisher.subscriber?.receive(5), .max(2), name)
            publisher.subscriber?.receive(completion: .finished)
            (publisher.given as? any Subscription)?.request(.max(1))
            (publisher.given as? any Subscription)?.cancel()
            XCTAssertEqual(recorder.history, [".value(5)"], name)

            let subscription = RecordingSubscription()
            publisher.subscriber?.receive(subscription: subscription)
            publisher.subscriber?.receive(completion: .finished)
            XCTAssertEqual(subscription.events, [.requested(.max(3))], name)
            XCTAssertEqual(recorder.history, [".value(5)", ".subscription", ".completion(.finished)"], name)
            publisher.release()
        }
        check("TryMap") { $0.tryMap { $0 }.eraseToAnyPublisher() }
        check("TryScan") { $0.tryScan(0, +).eraseToAnyPublisher() }
    }

    func testAThrowBeforeTheSubscriptionFailsAForwardingRelay() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryMap { _ -> Int in throw TestError(id: 1) }.subscribe(recorder)
        XCTAssertEqual(publisher.subscriber?.receive(5), Subscribers.Demand.none)
        XCTAssertEqual(recorder.history, [".completion(.failure(TestError(1)))"])
        let subscription = RecordingSubscription()
        publisher.subscriber?.receive(subscription: subscription)
        XCTAssertEqual(subscription.events, [.cancelled])
        publisher.release()
    }
}
