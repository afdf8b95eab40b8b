import Tether
import TetherTesting
import XCTest

final class CombineLatestTests: TetherTestCase {
    typealias Upstream = RecordingPublisher<Int, TestError>

    func testEmitsOnceEveryUpstreamHasProducedThenOnEachNewValue() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>()
        a.combineLatest(b).subscribe(recorder)
        a.send(1)
        a.send(2)
        b.send(10)
        a.send(3)
        b.send(20)
        XCTAssertEqual(recorder.history, [".subscription", ".value((2, 10))", ".value((3, 10))", ".value((3, 20))"])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["CombineLatest"])
        recorder.cancel()
    }

    func testForwardsEveryRequestToEveryUpstreamIncludingLateSubscribers() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>(demand: .max(2), demandPerValue: { _ in .max(1) })
        a.combineLatest(b).subscribe(recorder)
        XCTAssertEqual(a.subscription?.events, [.requested(.max(2))])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(2))])
        a.send(1)
        XCTAssertEqual(b.send(1), [.none])
        XCTAssertEqual(a.subscription?.events, [.requested(.max(2)), .requested(.max(1))])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(2)), .requested(.max(1))])
        recorder.request(.max(3))
        XCTAssertEqual(a.subscription?.events, [.requested(.max(2)), .requested(.max(1)), .requested(.max(3))])
        recorder.cancel()
        XCTAssertEqual(b.subscription?.events.last, .cancelled)
    }

    /// As OpenCombine's `testUpstreamExceedsDemand` records of Combine: a combination made
    /// without demand is dropped, later demand waits for the next value, and a finish does not
    /// wait behind a dropped combination.
    func testACombinationMadeWithoutDemandIsDroppedAsInCombine() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>(demand: .max(1))
        a.combineLatest(b).subscribe(recorder)
        a.send(1)
        b.send(1)
        a.send(2)
        b.send(3)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 1))"])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 1))"])
        a.send(4)
        b.send(5)
        a.send(6)
        a.send(completion: .finished)
        b.send(completion: .finished)
        XCTAssertEqual(
            recorder.history,
            [".subscription", ".value((1, 1))", ".value((4, 3))", ".value((4, 5))", ".completion(.finished)"]
        )
    }

    func testFinishesOnlyWhenEveryUpstreamHasFinished() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = RecordingSubscriber<(Int, Int, Int), TestError>()
        a.combineLatest(b, c).subscribe(recorder)
        a.send(1)
        a.send(completion: .finished)
        b.send(2)
        c.send(3)
        b.send(completion: .finished)
        c.send(4)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 2, 3))", ".value((1, 2, 4))"])
        c.send(completion: .finished)
        XCTAssertEqual(recorder.history.last, ".completion(.finished)")
        XCTAssertEqual(a.subscription?.events, [.requested(.unlimited)])
    }

    func testFailureCancelsTheOtherUpstreamsAndEndsTheStream() {
        let a = Upstream(), b = Upstream(), c = Upstream(), d = Upstream()
        let recorder = RecordingSubscriber<(Int, Int, Int, Int), TestError>()
        a.combineLatest(b, c, d).subscribe(recorder)
        c.send(completion: .failure(TestError(id: 3)))
        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(3)))"])
        for upstream in [a, b, d] {
            XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        }
        XCTAssertEqual(c.subscription?.events, [.requested(.unlimited)])
        a.send(1)
        XCTAssertEqual(recorder.history.count, 2)
    }

    func testAValueFedBackFromInsideReceiveBecomesTheLatestAndMakesNoCombinationAsInCombine() {
        // A subscriber that sends into an upstream from inside its `receive(_:)` (as a form fed
        // back from what it shows does): Combine makes no combination of that value, so the
        // feedback does not loop; the next value from anywhere else combines with it.
        let a = PassthroughSubject<Int, TestError>(), b = PassthroughSubject<Int, TestError>()
        var seen: [String] = []
        let cancellable = a.combineLatest(b).sink(
            receiveCompletion: { _ in },
            receiveValue: { pair in
                seen.append("\(pair)")
                a.send(pair.0 + 1)
            })
        a.send(1)
        b.send(10)
        XCTAssertEqual(seen, ["(1, 10)"])
        b.send(20)
        XCTAssertEqual(seen, ["(1, 10)", "(2, 20)"])
        a.send(7)
        XCTAssertEqual(seen, ["(1, 10)", "(2, 20)", "(7, 20)"])
        cancellable.cancel()
    }

    func testACompletionBeforeTheSubscriptionCountsAndTheLateSubscriptionIsCancelled() {
        // A publisher that completes while it is still handing its subscription over (as a
        // subject completed from another thread can): combineLatest neither traps nor loses it.
        let a = ManualPublisher<Int, TestError>(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>()
        a.combineLatest(b).subscribe(recorder)
        _ = a.subscriber?.receive(1)
        a.subscriber?.receive(completion: .finished)
        let late = RecordingSubscription()
        a.subscriber?.receive(subscription: late)
        b.send(10)
        b.send(completion: .finished)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 10))", ".completion(.finished)"])
        XCTAssertEqual(late.events, [.cancelled])
        a.release()
    }

    func testTransformVersionsAreMapsOverCombineLatest() {
        let two:
            Publishers.Map<
                Publishers.CombineLatest<Publishers.Sequence<[Int], Never>, Publishers.Sequence<[Int], Never>>, Int
            > =
                [1].publisher.combineLatest([10, 20].publisher) { $0 + $1 }
        XCTAssertEqual(values(two), [11, 21])
        XCTAssertEqual(values([1].publisher.combineLatest([2].publisher, [3].publisher) { $0 + $1 + $2 }), [6])
        XCTAssertEqual(
            values([1].publisher.combineLatest([2].publisher, [3].publisher, [4].publisher) { $0 * $1 * $2 * $3 }), [24]
        )
        XCTAssertEqual(
            Publishers.CombineLatest([1].publisher, [2].publisher), [1].publisher.combineLatest([2].publisher))
    }

    func testAsksUpstreamsForNothingUntilTheDownstreamAsks() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>(demand: .none)
        a.combineLatest(b).subscribe(recorder)
        XCTAssertEqual(a.subscription?.events, [])
        recorder.cancel()
        XCTAssertEqual(a.subscription?.events, [.cancelled])
    }

    func testTheSubscriptionHoldsItsSubscriberUntilItIsReleasedAsInCombine() {
        // Combine's combineLatest keeps its subscriber past a failure and a cancel (OpenCombine's
        // `CombineLatestTests` lifecycle tests, run against Combine), as its zip does.
        let a = Upstream(), b = Upstream()
        assertHoldsItsSubscriberUntilReleased(
            over: [a, b], attach: { a.combineLatest(b).subscribe($0) },
            end: { recorder in
                a.send(1)
                b.send(2)
                a.send(completion: .failure(TestError()))
                XCTAssertEqual(
                    recorder.history, [".subscription", ".value((1, 2))", ".completion(.failure(TestError(0)))"])
            }, "a failure does not let go of the subscriber")
        assertHoldsItsSubscriberUntilReleased(
            over: [a, b], attach: { a.combineLatest(b).subscribe($0) }, end: { $0.cancel() },
            "a cancel does not let go of the subscriber")
    }

    private func values<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
        let recorder = RecordingSubscriber<P.Output, Never>()
        publisher.subscribe(recorder)
        XCTAssertNotNil(recorder.completion)
        return recorder.values
    }
}
