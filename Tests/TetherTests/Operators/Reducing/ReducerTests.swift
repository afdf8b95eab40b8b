import Tether
import TetherTesting
import XCTest

final class ReducerTests: TetherTestCase {
    func testReduceAsksUpstreamForUnlimitedOnSubscribingAndPublishesOnFinish() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        publisher.reduce(10, +).subscribe(recorder)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])

        recorder.request(.max(1))
        recorder.request(.max(4))
        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.none])
        XCTAssertEqual(recorder.events, [.subscription])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(13), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Reduce"])
    }

    func testResultOfAnUpstreamThatFinishesBeforeAnyRequestWaitsForTheFirstRequest() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        publisher.count().subscribe(recorder)
        publisher.send(7)
        publisher.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])

        recorder.request(.max(1))
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        publisher.releaseSubscribers()
    }

    func testCompletionOfAnEmptyUpstreamWaitsForTheFirstRequestToo() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Empty<Int, Never>().eraseToAnyPublisher().max().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testSubscriptionGoesDownBeforeTheUpstreamIsAskedForUnlimited() {
        let publisher = RecordingPublisher<Int, Never>()
        var seenOnSubscription: [SubscriptionEvent]?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { _ in seenOnSubscription = publisher.subscription?.events },
            receiveValue: { _ in .none }, receiveCompletion: { _ in })
        publisher.count().subscribe(subscriber)
        XCTAssertEqual(seenOnSubscription, [])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        publisher.send(completion: .finished)
        publisher.releaseSubscribers()
    }

    func testSignalsBeforeTheSubscriptionAreIgnoredAndACancelThenChangesNothing() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        publisher.reduce(0, +).subscribe(recorder)
        let reducer = publisher.subscriber
        XCTAssertEqual(reducer?.receive(5), Subscribers.Demand.none)
        reducer?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [])
        let early = publisher.given as? any Subscription
        XCTAssertNotNil(early)
        early?.cancel()

        let subscription = RecordingSubscription()
        reducer?.receive(subscription: subscription)
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        XCTAssertEqual(reducer?.receive(2), Subscribers.Demand.none)
        reducer?.receive(completion: .finished)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
        publisher.release()
    }

    func testASecondSubscriptionIsCancelledBeforeAndAfterTheEnd() {
        let publisher = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        publisher.last().subscribe(recorder)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        publisher.subscriber?.receive(subscription: first)
        publisher.subscriber?.receive(subscription: second)
        _ = publisher.subscriber?.receive(4)
        publisher.subscriber?.receive(completion: .finished)
        publisher.subscriber?.receive(subscription: second)
        XCTAssertEqual(first.events, [.requested(.unlimited)])
        XCTAssertEqual(second.events, [.cancelled, .cancelled])
        XCTAssertEqual(recorder.events, [.subscription, .value(4), .completion(.finished)])
        publisher.release()
    }

    func testUpstreamFailurePassesThroughWithoutDemandOrResult() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<[Int], TestError>(demand: .none)
        publisher.collect().subscribe(recorder)
        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 3)))
        publisher.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 3)))])
        publisher.releaseSubscribers()
    }

    func testCollectCountMinMaxOverASequence() {
        // Erased: on a sequence publisher itself, these are Combine's eager fusions.
        let collected = RecordingSubscriber<[Int], Never>()
        [3, 1, 2].publisher.eraseToAnyPublisher().collect().subscribe(collected)
        XCTAssertEqual(collected.events, [.subscription, .value([3, 1, 2]), .completion(.finished)])

        let counted = RecordingSubscriber<Int, Never>()
        (0..<11).publisher.eraseToAnyPublisher().count().subscribe(counted)
        XCTAssertEqual(counted.values, [11])

        let minimum = RecordingSubscriber<Int, Never>()
        [-1, 0, 10, 5].publisher.eraseToAnyPublisher().min().subscribe(minimum)
        let maximum = RecordingSubscriber<Int, Never>()
        [0, 10, 5].publisher.eraseToAnyPublisher().max().subscribe(maximum)
        XCTAssertEqual(minimum.values, [-1])
        XCTAssertEqual(maximum.values, [10])
        XCTAssertEqual(collected.subscriptionDescriptions, ["Collect"])
        XCTAssertEqual(counted.subscriptionDescriptions, ["Count"])
        XCTAssertEqual(maximum.subscriptionDescriptions, ["Comparison"])
    }

    func testMinByAndMaxByKeepTheFirstOfEqualElements() {
        let pairs = [(1, "a"), (3, "b"), (1, "c"), (3, "d")]
        let minimum = RecordingSubscriber<(Int, String), Never>()
        // Erased, so that the operator runs rather than the sequence publisher's eager fusion;
        // the fusion (the standard library's min(by:)/max(by:)) keeps the first too.
        pairs.publisher.eraseToAnyPublisher().min { $0.0 < $1.0 }.subscribe(minimum)
        let maximum = RecordingSubscriber<(Int, String), Never>()
        pairs.publisher.eraseToAnyPublisher().max { $0.0 < $1.0 }.subscribe(maximum)
        XCTAssertEqual(minimum.values.map(\.1), ["a"])
        XCTAssertEqual(maximum.values.map(\.1), ["b"])
        XCTAssertEqual(pairs.publisher.min { $0.0 < $1.0 }.output?.1, "a")
        XCTAssertEqual(pairs.publisher.max { $0.0 < $1.0 }.output?.1, "b")
    }

    func testContainsCancelsUpstreamOnTheFirstMatchAndIgnoresLaterSignals() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Bool, Never>()
        publisher.contains(2).subscribe(recorder)
        publisher.send(1)
        publisher.send(2)
        XCTAssertEqual(publisher.send(3), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Contains"])
        publisher.releaseSubscribers()
    }

    func testContainsWherePublishesFalseWhenUpstreamFinishesWithoutMatch() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Bool, Never>()
        publisher.contains { $0 > 5 }.subscribe(recorder)
        publisher.send(1)
        publisher.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .value(false), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["ContainsWhere"])
        publisher.releaseSubscribers()
    }

    func testSettledResultBeforeAnyRequestCancelsUpstreamAndWaitsForTheRequest() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Bool, Never>(demand: .none)
        publisher.allSatisfy { $0 > 0 }.subscribe(recorder)
        publisher.send(-1)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(false), .completion(.finished)])
        publisher.releaseSubscribers()
    }

    func testAllSatisfyPublishesTrueOnFinish() {
        let recorder = RecordingSubscriber<Bool, Never>()
        // Erased: on a sequence publisher itself, allSatisfy is Combine's eager fusion.
        [1, 2].publisher.eraseToAnyPublisher().allSatisfy { $0 > 0 }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(true), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["AllSatisfy"])
    }

    func testTryOperatorsCancelUpstreamAndFailWithTheThrownErrorThenIgnoreEverything() {
        func check<P: Publisher>(
            _ name: String, _ make: (RecordingPublisher<Int, TestError>) -> P, expectValue: Bool = false
        ) where P.Failure == any Error {
            let publisher = RecordingPublisher<Int, TestError>()
            let recorder = RecordingSubscriber<P.Output, any Error>()
            make(publisher).subscribe(recorder)
            publisher.send(1)
            publisher.send(-7)
            XCTAssertEqual(publisher.send(2), [.none], name)
            publisher.send(completion: .finished)
            XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(-7)))"], name)
            XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled], name)
            XCTAssertEqual(recorder.subscriptionDescriptions, [name])
            publisher.releaseSubscribers()
        }
        let failNegative: (Int) throws -> Void = { if $0 < 0 { throw TestError(id: $0) } }
        check("TryReduce") {
            $0.tryReduce(0) {
                try failNegative($1); return $0 + $1
            }
        }
        check("TryComparison") {
            $0.tryMax {
                try failNegative($1); return $0 < $1
            }
        }
        check("TryComparison") {
            $0.tryMin {
                try failNegative($1); return $0 < $1
            }
        }
        check("TryAllSatisfy") {
            $0.tryAllSatisfy {
                try failNegative($0); return true
            }
        }
        check("TryContainsWhere") {
            $0.tryContains {
                try failNegative($0); return false
            }
        }
    }

    func testTryOperatorsRepublishUpstreamFailuresAsAnyError() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryReduce(0, +).subscribe(recorder)
        publisher.send(completion: .failure(TestError(id: 5)))
        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(5)))"])
        publisher.releaseSubscribers()
    }

    func testTryReduceAndTryMinPublishOnFinishWhenNothingThrows() {
        let sum = RecordingSubscriber<Int, any Error>()
        [1, 2, 3].publisher.tryReduce(0, +).subscribe(sum)
        XCTAssertEqual(sum.history, [".subscription", ".value(6)", ".completion(.finished)"])
        let minimum = RecordingSubscriber<Int, any Error>()
        [4, 2, 9].publisher.tryMin(by: <).subscribe(minimum)
        XCTAssertEqual(minimum.history, [".subscription", ".value(2)", ".completion(.finished)"])
    }

    func testCancelFromInsideReceiveSuppressesTheFinish() {
        let counted = CancellingRecorder()
        // Erased, so that the reducer runs rather than the sequence publisher's `Just` of the count.
        [1, 2].publisher.eraseToAnyPublisher().count().subscribe(counted)
        XCTAssertEqual(counted.events, ["value(2)"])
    }

    func testCancelReleasesDownstreamAndClosureAndCancelsUpstream() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            publisher.reduce(0) { [token] in
                _ = token; return $0 + $1
            }.subscribe(recorder)
            publisher.send(1)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNil(weakToken)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testCompletionReleasesDownstreamAndClosureWhileUpstreamStillHoldsTheSubscription() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Bool, Never>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Bool, Never>()
            weakRecorder = recorder
            publisher.contains { [token] _ in
                _ = token; return true
            }.subscribe(recorder)
            publisher.send(1)
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNil(weakToken)
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testCancellingAParkedResultReleasesItsSubscriber() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            weakRecorder = recorder
            publisher.count().subscribe(recorder)
            publisher.send(completion: .finished)
            recorder.cancel()
            XCTAssertEqual(recorder.events, [.subscription])
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testReducersDescribeThemselvesAsCombineDoes() {
        let publisher = RecordingPublisher<Int, Never>()
        func description<P: Publisher>(
            _ publisher: P, children: [String] = ["downstream", "result", "initial", "status"]
        )
            -> String
        {
            let recorder = RecordingSubscriber<P.Output, P.Failure>(demand: .none)
            publisher.subscribe(recorder)
            defer { recorder.cancel() }
            let subscription = recorder.subscription
            XCTAssertEqual(subscription.map { Mirror(reflecting: $0).children.compactMap(\.label) }, children)
            XCTAssertEqual(
                (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
                recorder.subscriptionDescriptions.first)
            return recorder.subscriptionDescriptions.first ?? ""
        }
        XCTAssertEqual(description(publisher.reduce(0, +)), "Reduce")
        XCTAssertEqual(description(publisher.count()), "Count")
        XCTAssertEqual(description(publisher.collect(), children: ["count"]), "Collect")
        XCTAssertEqual(description(publisher.min()), "Comparison")
        XCTAssertEqual(description(publisher.tryMax(by: <)), "TryComparison")
        XCTAssertEqual(description(publisher.contains(1)), "Contains")
        XCTAssertEqual(description(publisher.tryAllSatisfy { _ in true }), "TryAllSatisfy")
        XCTAssertEqual(description(publisher.first()), "First")
        XCTAssertEqual(description(publisher.first { _ in true }), "TryFirst")
        XCTAssertEqual(description(publisher.tryFirst { _ in true }), "TryFirstWhere")
        XCTAssertEqual(description(publisher.last()), "Last")
        XCTAssertEqual(description(publisher.last { _ in true }), "LastWhere")
        XCTAssertEqual(description(publisher.tryLast { _ in true }), "TryLastWhere")
        publisher.releaseSubscribers()
    }

    func testEquatableWhereCombineDeclaresIt() {
        let publisher = Just(1)
        XCTAssertEqual(publisher.count(), publisher.count())
        XCTAssertEqual(publisher.collect(), publisher.collect())
        XCTAssertEqual(publisher.contains(1), Publishers.Contains(upstream: publisher, output: 1))
        XCTAssertNotEqual(publisher.contains(1), publisher.contains(2))
    }
}

/// Cancels its subscription from inside the first value and records what it gets.
private final class CancellingRecorder: Subscriber, @unchecked Sendable {
    var events: [String] = []
    var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        events.append("value(\(input))")
        subscription?.cancel()
        subscription = nil
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        events.append("completion")
        subscription = nil
    }
}
