import Tether
import TetherTesting
import XCTest

final class JustTests: TetherTestCase {
    func testDeliversTheValueThenFinishesWithUnlimitedDemand() {
        let recorder = RecordingSubscriber<Int, Never>()
        Just(7).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Just"])
    }

    func testWaitsForDemandBeforeDelivering() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Just(7).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
    }

    func testLaterRequestsDeliverNothingMore() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Just(7).subscribe(recorder)
        let subscription = recorder.subscription
        subscription?.request(.max(1))
        subscription?.request(.max(3))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
    }

    func testRequestFromInsideReceiveDoesNotDeliverTwice() {
        var subscription: (any Subscription)?
        var events: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0; $0.request(.max(1))
            },
            receiveValue: { value in
                events.append("value \(value)")
                subscription?.request(.max(1))
                return .max(1)
            },
            receiveCompletion: { _ in
                events.append("finished"); subscription = nil
            })
        Just(3).subscribe(subscriber)
        XCTAssertEqual(events, ["value 3", "finished"])
    }

    func testConcurrentRequestsDeliverExactlyOnce() {
        for _ in 0..<100 {
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            Just(1).subscribe(recorder)
            guard let subscription = recorder.subscription else { return XCTFail("no subscription") }
            let box = UncheckedBox(subscription)
            DispatchQueueStandIn.concurrentPerform(iterations: 8) { _ in box.value.request(.max(1)) }
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        }
    }

    func testCancelBeforeDemandSendsNothing() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Just(7).subscribe(recorder)
        let subscription = recorder.subscription
        recorder.cancel()
        subscription?.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testCancelReleasesTheSubscriber() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            weakRecorder = recorder
            Just(7).subscribe(recorder)
            subscription = recorder.subscription
        }
        XCTAssertNotNil(weakRecorder, "a waiting subscription holds its subscriber")
        subscription?.cancel()
        XCTAssertNil(weakRecorder, "a cancelled subscription must let go of its subscriber")
        subscription = nil
    }

    func testDeliveryReleasesTheSubscriber() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            weakRecorder = recorder
            Just(7).subscribe(recorder)
            subscription = recorder.subscription
        }
        subscription?.request(.max(1))
        XCTAssertNil(weakRecorder, "a finished subscription must let go of its subscriber")
        subscription = nil
    }

    func testEverySubscriberGetsTheValue() {
        let just = Just("a")
        let first = RecordingSubscriber<String, Never>()
        let second = RecordingSubscriber<String, Never>()
        just.subscribe(first)
        just.subscribe(second)
        XCTAssertEqual(first.values, ["a"])
        XCTAssertEqual(second.values, ["a"])
    }

    func testMirrorShowsTheValue() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Just(9).subscribe(recorder)
        let children = recorder.subscription.map { Mirror(reflecting: $0).children.map { $0.value as? Int } }
        XCTAssertEqual(children, [9])
        recorder.cancel()
    }

    func testEquatable() {
        XCTAssertEqual(Just(1), Just(1))
        XCTAssertNotEqual(Just(1), Just(2))
    }

    func testMapReturnsAJustAndRunsEagerly() {
        var calls = 0
        let mapped: Just<String> = Just(4).map {
            calls += 1; return "\($0 * 2)"
        }
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(mapped.output, "8")
        let recorder = RecordingSubscriber<String, Never>()
        mapped.subscribe(recorder)
        mapped.subscribe(RecordingSubscriber<String, Never>())
        XCTAssertEqual(recorder.events, [.subscription, .value("8"), .completion(.finished)])
        XCTAssertEqual(calls, 1)
    }

    func testTryMapReturnsAResultPublisher() {
        let success: Result<Int, any Error>.Publisher = Just(2).tryMap { $0 + 1 }
        XCTAssertEqual(try success.result.get(), 3)
        let failure = Just(2).tryMap { _ -> Int in throw TestError(id: 5) }
        XCTAssertThrowsError(try failure.result.get()) { XCTAssertEqual($0 as? TestError, TestError(id: 5)) }
    }

    func testFilterReturnsAnOptionalPublisher() {
        let kept: Optional<Int>.Publisher = Just(2).filter { $0 > 1 }
        let dropped = Just(2).filter { $0 > 5 }
        XCTAssertEqual(kept.output, 2)
        XCTAssertNil(dropped.output)
        let recorder = RecordingSubscriber<Int, Never>()
        dropped.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testCompactMapReturnsAnOptionalPublisher() {
        let parsed: Optional<Int>.Publisher = Just("12").compactMap { Int($0) }
        XCTAssertEqual(parsed, Optional<Int>.Publisher(12))
        XCTAssertNil(Just("x").compactMap { Int($0) }.output)
    }
}
