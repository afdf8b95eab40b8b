import Tether
import TetherTesting
import XCTest

final class MergeTests: TetherTestCase {
    typealias Upstream = RecordingPublisher<Int, TestError>

    func testInterleavesValuesInArrivalOrderAndFinishesWhenAllFinish() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(recorder)

        a.send(1)
        b.send(10)
        a.send(2)
        a.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(10), .value(2)])
        b.send(11)
        b.send(completion: .finished)
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(10), .value(2), .value(11), .completion(.finished)])
        XCTAssertEqual(a.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(b.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Merge"])
    }

    func testFiniteDemandPrefetchesOneValuePerUpstreamAndRefillsAsValuesGoDownstream() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        a.merge(with: b).subscribe(recorder)
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(1))])

        recorder.request(.max(1))
        XCTAssertEqual(a.send(1), [.max(1)], "a value that goes straight down is refilled by return")
        XCTAssertEqual(b.send(2), [.none], "no demand: queued, not refilled")
        XCTAssertEqual(recorder.values, [1])

        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(1)), .requested(.max(1))])
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1))])
        recorder.cancel()
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1)), .cancelled])
    }

    func testUnlimitedDemandAfterSubscriptionAsksEveryUpstreamForUnlimited() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        a.merge(with: b).subscribe(recorder)
        recorder.request(.unlimited)
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1)), .requested(.unlimited)])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(1)), .requested(.unlimited)])
        XCTAssertEqual(a.send(1), [.none])
        recorder.cancel()
    }

    /// `Upstream` ignores demand. After 0, 100 and 1 the demand is spent: 101 and 2 wait (each
    /// upstream was asked again as its value went down), and each later value, sent beyond what
    /// was asked, replaces its upstream's waiting one, leaving 3 and 103, as OpenCombine's
    /// `testUpstreamExceedsDemand` records of Combine.
    func testDemandIsHonouredExactlyAndAValueBeyondWhatWasAskedReplacesItsUpstreamsWaitingOne() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3))
        a.merge(with: b).subscribe(recorder)
        for value in 0..<4 {
            a.send(value)
            b.send(100 + value)
        }
        XCTAssertEqual(recorder.values, [0, 100, 1])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [0, 100, 1, 3])
        recorder.request(.max(5))
        XCTAssertEqual(recorder.values, [0, 100, 1, 3, 103])
        recorder.cancel()
    }

    func testQueuedValuesGoOutBeforeTheFinishedCompletion() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        a.merge(with: b).subscribe(recorder)
        a.send(1)
        a.send(completion: .finished)
        b.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testFailureOvertakesQueuedValuesAndCancelsEveryUpstreamTheFailingOneToo() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        a.merge(with: b, c).subscribe(recorder)
        a.send(1)
        c.send(completion: .finished)
        b.send(completion: .failure(TestError(id: 7)))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 7)))])
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertEqual(c.subscription?.events, [.requested(.max(1))], "it had finished")
        a.send(2)
        b.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 7)))])
    }

    func testCancelCancelsEveryUpstreamAndDropsLaterSignals() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(recorder)
        recorder.cancel()
        XCTAssertEqual(a.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(b.subscription?.events, [.requested(.unlimited), .cancelled])
        a.send(1)
        b.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testCancelFromInsideReceiveDoesNotDeadlockAndStopsTheDrain() {
        let a = Upstream(), b = Upstream()
        var subscription: (any Subscription)?
        let sink = AnySubscriber<Int, TestError>(
            receiveSubscription: {
                subscription = $0; $0.request(.max(1))
            },
            receiveValue: { _ in
                subscription?.cancel(); return .max(5)
            },
            receiveCompletion: { _ in XCTFail("no completion after cancel") })
        a.merge(with: b).subscribe(sink)
        a.send(1)
        b.send(2)
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1)), .cancelled])
        subscription = nil
    }

    func testValueSentFromInsideReceiveIsQueuedNotNested() {
        let a = Upstream(), b = Upstream()
        var depth = 0
        var maxDepth = 0
        var seen: [Int] = []
        let sink = AnySubscriber<Int, TestError>(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                seen.append(value)
                if value == 1 { b.send(2) }
                depth -= 1
                return .none
            },
            receiveCompletion: { _ in })
        a.merge(with: b).subscribe(sink)
        a.send(1)
        XCTAssertEqual(seen, [1, 2])
        XCTAssertEqual(maxDepth, 1)
        a.send(completion: .finished)
        b.send(completion: .finished)
        // The merge holds the sink for life, and the sink's closure holds `b`: let go of the
        // upstreams' relays to end the cycle.
        a.releaseSubscribers()
        b.releaseSubscribers()
    }

    func testAQueuedValueIsLetGoOfOnceDeliveredNotWhenTheQueueEmpties() {
        final class Payload {
            let number: Int
            init(_ number: Int) { self.number = number }
        }
        let a = PassthroughSubject<Payload, Never>(), b = PassthroughSubject<Payload, Never>()
        weak var firstQueued: Payload?
        var history: [String] = []
        let cancellable = a.merge(with: b).sink { payload in
            history.append("\(payload.number)")
            if payload.number == 0 {
                let one = Payload(1)
                firstQueued = one
                b.send(one)
                b.send(Payload(2))
                b.send(Payload(3))
            } else {
                history.append(firstQueued == nil ? "1 released" : "1 kept")
            }
        }
        a.send(Payload(0))
        XCTAssertEqual(history, ["0", "1", "1 kept", "2", "1 released", "3", "1 released"])
        cancellable.cancel()
    }

    func testSecondSubscriptionFromAnUpstreamIsCancelled() {
        let a = ManualPublisher<Int, TestError>(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(recorder)
        let first = RecordingSubscription(), second = RecordingSubscription()
        a.subscriber?.receive(subscription: first)
        a.subscriber?.receive(subscription: second)
        XCTAssertEqual(first.events, [.requested(.unlimited)])
        XCTAssertEqual(second.events, [.cancelled])
        recorder.cancel()
        a.release()
    }

    func testACompletionBeforeTheSubscriptionEndsThatUpstreamAndItsLateSubscriptionIsCancelled() {
        // A publisher that completes while it is still handing its subscription over (as a
        // subject completed from another thread can): the merge neither traps nor loses it.
        let a = ManualPublisher<Int, TestError>(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(recorder)
        a.subscriber?.receive(completion: .finished)
        let late = RecordingSubscription()
        a.subscriber?.receive(subscription: late)
        b.send(1)
        b.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(late.events, [.cancelled])
        a.release()
    }

    func testAValueBeforeTheSubscriptionGoesDownstreamAndTheUpstreamRunsOnOnceSubscribed() {
        let a = ManualPublisher<Int, TestError>(), b = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>()
        a.merge(with: b).subscribe(recorder)
        XCTAssertEqual(a.subscriber?.receive(7), Subscribers.Demand.none)
        let subscription = RecordingSubscription()
        a.subscriber?.receive(subscription: subscription)
        _ = a.subscriber?.receive(8)
        a.subscriber?.receive(completion: .failure(TestError()))
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .value(8), .completion(.failure(TestError()))])
        XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(b.subscription?.events, [.requested(.unlimited), .cancelled])
        a.release()
    }

    func testMergesEveryArityAndFusesIntoOneMerge() {
        let u = (0..<8).map { _ in Upstream() }
        let recorder = RecordingSubscriber<Int, TestError>()
        let fused: Publishers.Merge8 = u[0].merge(with: u[1]).merge(with: u[2], u[3]).merge(with: u[4])
            .merge(with: u[5], u[6], u[7])
        fused.subscribe(recorder)
        for (index, upstream) in u.enumerated().reversed() { upstream.send(index) }
        for upstream in u { upstream.send(completion: .finished) }
        XCTAssertEqual(recorder.values, [7, 6, 5, 4, 3, 2, 1, 0])
        XCTAssertEqual(recorder.completion, .finished)

        let counts = [
            collect(Publishers.Merge3(just(1), just(2), just(3))),
            collect(just(1).merge(with: just(2), just(3), just(4))),
            collect(just(1).merge(with: just(2), just(3), just(4), just(5))),
            collect(just(1).merge(with: just(2), just(3), just(4), just(5), just(6))),
            collect(just(1).merge(with: just(2), just(3), just(4), just(5), just(6), just(7))),
            collect(just(1).merge(with: just(2), just(3), just(4), just(5), just(6), just(7), just(8))),
        ]
        XCTAssertEqual(
            counts,
            [
                [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 6],
                [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7, 8],
            ])
    }

    func testMergeManyMergesASequenceAndGrowsWithMergeWith() {
        let many = Publishers.MergeMany([[1, 2].publisher, [3].publisher]).merge(with: [4, 5].publisher)
        XCTAssertEqual(many.publishers.count, 3)
        XCTAssertEqual(collect(many), [1, 2, 3, 4, 5])
        let same: Publishers.MergeMany = [6].publisher.merge(with: [7].publisher)
        XCTAssertEqual(collect(same), [6, 7])
        XCTAssertEqual(
            Publishers.MergeMany([1].publisher, [2].publisher), Publishers.MergeMany([[1].publisher, [2].publisher]))

        let empty = RecordingSubscriber<Int, Never>()
        Publishers.MergeMany<Publishers.Sequence<[Int], Never>>([]).subscribe(empty)
        XCTAssertEqual(empty.events, [.subscription, .completion(.finished)])
    }

    func testMergeOfSequencesWithLimitedDemandDeliversExactlyTheDemand() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(3))
        (0..<5).publisher.merge(with: (5..<10).publisher).subscribe(recorder)
        XCTAssertEqual(recorder.values.count, 3)
        recorder.request(.unlimited)
        XCTAssertEqual(recorder.values.sorted(), Array(0..<10))
        XCTAssertEqual(recorder.completion, .finished)
    }

    func testTheSubscriptionHoldsItsSubscriberUntilItIsReleasedAsInCombine() {
        // Combine's merge keeps its subscriber past a failure and a cancel (OpenCombine's
        // `MergeTests` lifecycle tests, run against Combine): the upstreams' relays are the last
        // owners of the merge, and the merge of the subscriber.
        let a = Upstream(), b = Upstream()
        assertHoldsItsSubscriberUntilReleased(
            over: [a, b], attach: { a.merge(with: b).subscribe($0) },
            end: { (recorder: RecordingSubscriber<Int, TestError>) in
                a.send(completion: .failure(TestError()))
                XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError()))])
            }, "a failure does not let go of the subscriber")
        assertHoldsItsSubscriberUntilReleased(
            over: [a, b], attach: { a.merge(with: b).subscribe($0) },
            end: { recorder in
                a.send(1)
                recorder.cancel()
            }, "a cancel does not let go of the subscriber")
    }

    func testAFailureCancelsEveryUpstreamTheFailingOneTooAsInCombine() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = RecordingSubscriber<Int, TestError>()
        a.merge(with: b, c).subscribe(recorder)
        b.send(completion: .failure(TestError()))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError()))])
        XCTAssertEqual(a.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(b.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(c.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testEquatableWhenUpstreamsAre() {
        XCTAssertEqual(just(1).merge(with: just(2)), Publishers.Merge(just(1), just(2)))
        XCTAssertNotEqual(just(1).merge(with: just(2)), Publishers.Merge(just(1), just(3)))
    }

    private func just(_ value: Int) -> Publishers.Sequence<[Int], Never> { [value].publisher }

    private func collect<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
        let recorder = RecordingSubscriber<P.Output, Never>()
        publisher.subscribe(recorder)
        XCTAssertNotNil(recorder.completion)
        return recorder.values
    }
}
