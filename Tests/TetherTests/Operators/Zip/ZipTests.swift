import Tether
import TetherTesting
import XCTest

final class ZipTests: TetherTestCase {
    typealias Upstream = RecordingPublisher<Int, TestError>

    func testPairsValuesInOrder() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        a.send(1)
        a.send(2)
        a.send(3)
        b.send(10)
        b.send(20)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 10))", ".value((2, 20))"])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Zip"])
        recorder.cancel()
        XCTAssertEqual(a.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testForwardsTheDownstreamDemandToEachUpstreamAndDeliversWhatTheyPair() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>(demand: .max(1))
        a.zip(b).subscribe(recorder)
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(1))])
        a.send(1)
        b.send(1)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 1))"])
        // Beyond the demand: as in Combine, the zip trusts its upstreams and delivers the pair.
        a.send(2)
        b.send(2)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 1))", ".value((2, 2))"])
        recorder.request(.max(2))
        XCTAssertEqual(a.subscription?.events, [.requested(.max(1)), .requested(.max(2))])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(1)), .requested(.max(2))])
        recorder.cancel()
    }

    func testDemandReturnedFromReceiveGoesBackToTheSenderAndIsRequestedFromTheOthers() {
        let a = Upstream(), b = Upstream(), c = Upstream()
        let recorder = RecordingSubscriber<(Int, Int, Int), TestError>(
            demand: .max(1), demandPerValue: { _ in .max(1) })
        a.zip(b, c).subscribe(recorder)
        XCTAssertEqual(a.send(1), [.none])
        XCTAssertEqual(b.send(2), [.none])
        XCTAssertEqual(c.send(3), [.max(1)])
        for upstream in [a, b] {
            XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .requested(.max(1))])
        }
        XCTAssertEqual(c.subscription?.events, [.requested(.max(1))])
        recorder.cancel()
    }

    func testARequestMadeWhileReceivingGoesBackToTheSender() {
        let a = Upstream(), b = Upstream()
        var subscription: (any Subscription)?
        let sink = AnySubscriber<(Int, Int), TestError>(
            receiveSubscription: {
                subscription = $0
                $0.request(.max(10))
            },
            receiveValue: { _ in
                subscription?.request(.max(666))
                return .none
            })
        a.zip(b).subscribe(sink)
        XCTAssertEqual(a.send(1), [.none])
        XCTAssertEqual(b.send(1), [.max(666)])
        XCTAssertEqual(a.subscription?.events, [.requested(.max(10)), .requested(.max(666))])
        XCTAssertEqual(b.subscription?.events, [.requested(.max(10))])
        // Outside a delivery, a request reaches every upstream.
        subscription?.request(.max(1))
        XCTAssertEqual(b.subscription?.events, [.requested(.max(10)), .requested(.max(1))])
        subscription?.cancel()
        subscription = nil  // the zip holds its subscriber, whose closure holds the subscription
    }

    func testFinishesAsSoonAsAFinishedUpstreamHasNothingLeftToPair() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        a.send(1)
        a.send(2)
        a.send(completion: .finished)
        XCTAssertEqual(recorder.history, [".subscription"], "a's values can still be paired")
        b.send(10)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 10))"])
        b.send(20)
        XCTAssertEqual(
            recorder.history, [".subscription", ".value((1, 10))", ".value((2, 20))", ".completion(.finished)"])
        XCTAssertEqual(a.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(b.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testFinishWithAnEmptyQueueFinishesAtOnceAndCancelsTheOthers() {
        let a = Upstream(), b = Upstream(), c = Upstream(), d = Upstream()
        let recorder = RecordingSubscriber<(Int, Int, Int, Int), TestError>()
        a.zip(b, c, d).subscribe(recorder)
        a.send(1)
        c.send(completion: .finished)
        XCTAssertEqual(recorder.history, [".subscription", ".completion(.finished)"])
        for upstream in [a, b, d] {
            XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        }
        XCTAssertEqual(c.subscription?.events, [.requested(.unlimited)])
    }

    func testFailureCancelsEveryUpstreamTheFailingOneTooAsInCombine() {
        let a = Upstream(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        a.send(1)
        b.send(completion: .failure(TestError(id: 4)))
        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(4)))"])
        XCTAssertEqual(a.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(b.subscription?.events, [.requested(.unlimited), .cancelled])
        b.send(1)
        XCTAssertEqual(recorder.history.count, 2)
    }

    func testACompletionBeforeTheSubscriptionFinishesTheZipAndTheLateSubscriptionIsCancelled() {
        // A publisher that completes while it is still handing its subscription over (as a
        // subject completed from another thread can): the zip neither traps nor loses it.
        let a = ManualPublisher<Int, TestError>(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        a.subscriber?.receive(completion: .finished)
        let late = RecordingSubscription()
        a.subscriber?.receive(subscription: late)
        XCTAssertEqual(recorder.history, [".subscription", ".completion(.finished)"])
        XCTAssertEqual(late.events, [.cancelled])
        XCTAssertEqual(b.subscription?.events, [.requested(.unlimited), .cancelled])
        a.release()
    }

    func testAValueBeforeTheSubscriptionIsPairedLikeAnyOther() {
        let a = ManualPublisher<Int, TestError>(), b = Upstream()
        let recorder = RecordingSubscriber<(Int, Int), TestError>()
        a.zip(b).subscribe(recorder)
        _ = a.subscriber?.receive(1)
        let subscription = RecordingSubscription()
        a.subscriber?.receive(subscription: subscription)
        _ = a.subscriber?.receive(2)
        b.send(10)
        b.send(20)
        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 10))", ".value((2, 20))"])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        recorder.cancel()
        a.release()
    }

    func testTransformVersionsAreMapsOverZip() {
        let two:
            Publishers.Map<Publishers.Zip<Publishers.Sequence<[Int], Never>, Publishers.Sequence<[Int], Never>>, Int> =
                [1, 2, 3].publisher.zip([10, 20].publisher) { $0 + $1 }
        XCTAssertEqual(values(two), [11, 22])
        XCTAssertEqual(values([1, 2].publisher.zip([2, 3].publisher, [3, 4].publisher) { $0 + $1 + $2 }), [6, 9])
        XCTAssertEqual(
            values([1].publisher.zip([2].publisher, [3].publisher, [4].publisher) { $0 * $1 * $2 * $3 }), [24])
        XCTAssertEqual(Publishers.Zip([1].publisher, [2].publisher), [1].publisher.zip([2].publisher))
        XCTAssertEqual(Publishers.Zip4([1].publisher, [2].publisher, [3].publisher, [4].publisher).d, [4].publisher)
    }

    func testTheSubscriptionHoldsItsSubscriberUntilItIsReleasedAsInCombine() {
        let a = Upstream(), b = Upstream()
        assertHoldsItsSubscriberUntilReleased(
            over: [a, b], attach: { a.zip(b).subscribe($0) }, end: { _ in a.send(completion: .finished) },
            "a completion does not let go of the subscriber")
        assertHoldsItsSubscriberUntilReleased(
            over: [a, b], attach: { a.zip(b).subscribe($0) },
            end: { recorder in
                a.send(1)
                recorder.cancel()
            }, "a cancel does not let go of the subscriber")
    }

    func testADeliveredPairIsLetGoOfWhileTheDrainGoesOnToTheNext() {
        final class Payload {
            let number: Int
            init(_ number: Int) { self.number = number }
        }
        let a = PassthroughSubject<Payload, Never>(), b = PassthroughSubject<Payload, Never>()
        weak var firstOfTheDrain: Payload?
        var history: [String] = []
        // Pairs fed back from inside a delivery, which the drain that delivers them goes on to.
        let cancellable = a.zip(b).sink { pair in
            history.append("\(pair.0.number)")
            if pair.0.number == 0 {
                for number in 1...2 {
                    a.send(Payload(number))
                    b.send(Payload(number))
                }
            } else {
                history.append(firstOfTheDrain == nil ? "0 released" : "0 kept")
            }
        }
        do {
            let zero = Payload(0)
            firstOfTheDrain = zero
            a.send(zero)
        }
        b.send(Payload(0))
        XCTAssertEqual(history, ["0", "1", "0 released", "2", "0 released"])
        cancellable.cancel()
    }

    private func values<P: Publisher>(_ publisher: P) -> [P.Output] where P.Failure == Never {
        let recorder = RecordingSubscriber<P.Output, Never>()
        publisher.subscribe(recorder)
        XCTAssertNotNil(recorder.completion)
        return recorder.values
    }
}
