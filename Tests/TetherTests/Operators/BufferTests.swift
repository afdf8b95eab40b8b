import Foundation
import Tether
import TetherTesting
import XCTest

final class BufferTests: TetherTestCase {
    private func make(
        size: Int = 3, prefetch: Publishers.PrefetchStrategy,
        whenFull: Publishers.BufferingStrategy<TestError> = .dropNewest,
        demand: Subscribers.Demand = .none
    ) -> (RecordingPublisher<Int, TestError>, RecordingSubscriber<Int, TestError>) {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: demand)
        upstream.buffer(size: size, prefetch: prefetch, whenFull: whenFull).subscribe(recorder)
        return (upstream, recorder)
    }

    func testKeepFullAsksForSizeBeforeTheSubscriberSeesTheSubscription() {
        let upstream = RecordingPublisher<Int, TestError>()
        var historyAtSubscription: [SubscriptionEvent] = []
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        upstream.buffer(size: 42, prefetch: .keepFull, whenFull: .dropOldest)
            .handleEvents(receiveSubscription: { _ in historyAtSubscription = upstream.subscription?.events ?? [] })
            .subscribe(recorder)
        XCTAssertEqual(historyAtSubscription, [.requested(.max(42))])
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(42)), .cancelled])
        let direct = RecordingSubscriber<Int, TestError>(demand: .none)
        upstream.buffer(size: 1, prefetch: .keepFull, whenFull: .dropOldest).subscribe(direct)
        XCTAssertEqual(direct.subscriptionDescriptions, ["Buffer"])
        direct.cancel()
    }

    func testByRequestAsksForUnlimited() {
        let (upstream, recorder) = make(prefetch: .byRequest)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        recorder.cancel()
    }

    func testKeepFullRequestsOneMoreForEachValueDelivered() {
        let (upstream, recorder) = make(size: 5, prefetch: .keepFull)
        for value in 0..<10 {
            XCTAssertEqual(upstream.send(value), [.none])
        }
        recorder.request(.max(3))
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [0, 1, 2, 3])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(5)), .requested(.max(3)), .requested(.max(1))])
        recorder.cancel()
    }

    func testKeepFullReturnsDemandFromReceiveWhenValuesFlowStraightThrough() {
        let (upstream, recorder) = make(size: 5, prefetch: .keepFull, demand: .unlimited)
        for value in 0..<4 {
            XCTAssertEqual(upstream.send(value), [.max(1)])
        }
        XCTAssertEqual(recorder.values, [0, 1, 2, 3])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(5))])
        recorder.cancel()
    }

    func testByRequestNeverAsksAgain() {
        let (upstream, recorder) = make(size: 5, prefetch: .byRequest, demand: .unlimited)
        for value in 0..<4 {
            XCTAssertEqual(upstream.send(value), [.none])
        }
        XCTAssertEqual(recorder.values, [0, 1, 2, 3])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        recorder.cancel()
    }

    func testDropNewestKeepsTheFirstValues() {
        let (upstream, recorder) = make(size: 3, prefetch: .byRequest, whenFull: .dropNewest)
        for value in 1...5 { upstream.send(value) }
        recorder.request(.max(3))
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        recorder.cancel()
    }

    func testDropOldestKeepsTheLastValues() {
        let (upstream, recorder) = make(size: 3, prefetch: .byRequest, whenFull: .dropOldest)
        for value in 1...5 { upstream.send(value) }
        recorder.request(.max(3))
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .value(4), .value(5)])
        recorder.cancel()
    }

    func testCustomErrorCancelsUpstreamAndFailsOnTheNextRequestAfterTheBufferedValues() {
        var made = 0
        let (upstream, recorder) = make(
            size: 3, prefetch: .byRequest,
            whenFull: .customError {
                made += 1
                return TestError(id: 7)
            })
        for value in 1...5 { upstream.send(value) }
        XCTAssertEqual(made, 1)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(3))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.failure(TestError(id: 7)))])
    }

    func testKeepFullStillAsksTheUpstreamItCancelledForAnOverflowToRefillAsCombineDoes() {
        let (upstream, recorder) = make(size: 5, prefetch: .keepFull, whenFull: .customError { TestError(id: 2) })
        for value in 0..<10 { upstream.send(value) }
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(5)), .cancelled])
        recorder.request(.max(3))
        recorder.request(.max(1))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(0), .value(1), .value(2), .completion(.failure(TestError(id: 2)))])
        // The refill for the three values delivered, asked after the failure went down.
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(5)), .cancelled, .requested(.max(3))])
        upstream.releaseSubscribers()
    }

    func testKeepFullAsksAFinishedUpstreamToRefillWhatADownstreamRequestDeliversAsCombineDoes() {
        let (upstream, recorder) = make(size: 3, prefetch: .keepFull)
        for value in 1...3 { upstream.send(value) }
        upstream.send(completion: .finished)
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(3)), .requested(.max(2))])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        XCTAssertEqual(
            upstream.subscription?.events, [.requested(.max(3)), .requested(.max(2)), .requested(.max(1))])
        upstream.releaseSubscribers()
    }

    func testAValueSentFromInsideTheCustomErrorClosureTrapsAsInCombine() {
        let trap = ChildProcessTrap(
            test: "TetherTests.BufferTests/testAValueSentFromInsideTheCustomErrorClosureTrapsAsInCombine", id: "send")
        let outcome = trap.run {
            let upstream = RecordingPublisher<Int, TestError>()
            let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
            upstream.buffer(
                size: 0, prefetch: .keepFull,
                whenFull: .customError {
                    upstream.send(1_000)
                    return TestError()
                }
            ).subscribe(recorder)
            upstream.send(0)
        }
        guard !ChildProcessTrap.isChildProcess else { return }
        guard case .trapped = outcome else { return XCTFail("did not trap: \(outcome)") }
    }

    func testFinishedWaitsForTheBufferToDrainAndForDemand() {
        let (upstream, recorder) = make(size: 3, prefetch: .byRequest)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testValuesAfterFinishedAreStillBufferedAsInCombine() {
        let (upstream, recorder) = make(size: 3, prefetch: .byRequest)
        upstream.send(completion: .finished)
        upstream.send(1)
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testFailureWithoutDemandIsDeliveredAtOnceDroppingTheBuffer() {
        let (upstream, recorder) = make(size: 3, prefetch: .byRequest)
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        upstream.send(3)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
    }

    func testFailureAfterTheDemandedValuesWhenTheSubscriberHasDemand() {
        let (upstream, recorder) = make(size: 5, prefetch: .byRequest, whenFull: .dropOldest)
        for value in 1...4 { upstream.send(value) }
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        upstream.send(completion: .failure(TestError(id: 3)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 3)))])
    }

    func testAFailureArrivingDuringABatchWithNoDemandLeftOvertakesTheRestOfItAsInCombine() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none) { value in
            if value == 1 { upstream.send(completion: .failure(TestError(id: 5))) }
            return .none
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        for value in 1...4 { upstream.send(value) }
        // The request takes 1, 2 and 3 out of the buffer at once; the failure goes down as soon as
        // 1 has been handed over, and the rest of the batch follows it; 4 is dropped.
        recorder.request(.max(3))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .completion(.failure(TestError(id: 5))), .value(2), .value(3)])
        upstream.releaseSubscribers()
    }

    func testAFailureArrivingDuringABatchAfterAValueWithDemandLeftWaitsForThatValue() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none) { value in
            if value == 1 {
                upstream.send(7)
                upstream.send(completion: .failure(TestError(id: 5)))
            }
            return .none
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        for value in 1...2 { upstream.send(value) }
        // Demand is left after the batch and 7 is buffered when the failure comes: it waits for
        // the buffered value, and values keep their order (Combine would hand 7 over at once,
        // nested, then the failure, then 2).
        recorder.request(.max(5))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(2), .value(7), .completion(.failure(TestError(id: 5)))])
        upstream.releaseSubscribers()
    }

    func testAFinishArrivingDuringABatchThatEmptiedTheBufferWithDemandLeftOvertakesItAsInCombine() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none) { value in
            if value == 1 { upstream.send(completion: .finished) }
            return .none
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        for value in 1...2 { upstream.send(value) }
        recorder.request(.max(5))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished), .value(2)])
        upstream.releaseSubscribers()
    }

    /// Sends `completion` to `upstream` from a thread of its own and waits until that call
    /// returns: a completion that arrives while the calling thread hands a batch over.
    private func complete(
        _ upstream: RecordingPublisher<Int, TestError>, with completion: Subscribers.Completion<TestError>
    ) {
        let sent = DispatchSemaphore(value: 0)
        Thread {
            upstream.send(completion: completion)
            sent.signal()
        }.start()
        sent.wait()
    }

    func testAFinishFromAnotherThreadDuringABatchWaitsForTheRestOfIt() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none) { [self] value in
            if value == 1 { complete(upstream, with: .finished) }
            return .none
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        for value in 1...2 { upstream.send(value) }
        // Sent from inside the delivery of 1 it would go first (see above); from another thread
        // it comes after the values taken for the demand.
        recorder.request(.max(5))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        upstream.releaseSubscribers()
    }

    func testAFailureFromAnotherThreadDuringABatchWaitsForTheRestOfItAndDropsWhatIsBuffered() {
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none) { [self] value in
            if value == 1 { complete(upstream, with: .failure(TestError(id: 5))) }
            return .none
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        for value in 1...4 { upstream.send(value) }
        recorder.request(.max(3))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.failure(TestError(id: 5)))])
        upstream.releaseSubscribers()
    }

    func testAValueArrivingDuringABatchComesAfterItAndACancelDropsTheRestOfTheBatch() {
        let upstream = RecordingPublisher<Int, TestError>()
        var subscription: (any Subscription)?
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none) { value in
            if value == 1 { upstream.send(9) }
            if value == 9 { subscription?.cancel() }
            return .none
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        subscription = recorder.subscription
        for value in 1...3 { upstream.send(value) }
        recorder.request(.max(5))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .value(9)])
        recorder.request(.max(5))
        upstream.send(4)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .value(9)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        subscription = nil
        // The cancel above went past the recorder, which still holds the subscription.
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testTheDemandABatchReturnsCountsOnceTheBatchIsDone() {
        let upstream = RecordingPublisher<Int, TestError>()
        var seen: [String] = []
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none) { value in
            if value == 1 {
                // Nothing is left beyond the batch: with the demand value 1 returns not yet
                // counted, this failure overtakes the batch.
                upstream.send(completion: .failure(TestError(id: 3)))
            }
            seen.append("\(value)")
            return .max(1)
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
        for value in 1...3 { upstream.send(value) }
        recorder.request(.max(2))
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .completion(.failure(TestError(id: 3))), .value(2)])
        XCTAssertEqual(seen, ["1", "2"])
        upstream.releaseSubscribers()
    }

    func testValuesBeforeTheSubscriptionAndRequestNoneAreIgnored() {
        let manual = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        manual.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        XCTAssertEqual(manual.subscriber?.receive(1), Subscribers.Demand.none)
        manual.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [])
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        manual.subscriber?.receive(subscription: first)
        manual.subscriber?.receive(subscription: second)
        XCTAssertEqual(second.events, [.cancelled])
        recorder.request(.none)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.cancel()
        XCTAssertEqual(first.events, [.requested(.unlimited), .cancelled])
        manual.release()
    }

    func testRequestFromInsideReceiveDoesNotRecurse() {
        let upstream = RecordingPublisher<Int, TestError>()
        var depth = 0
        var deepest = 0
        var recorder: RecordingSubscriber<Int, TestError>!
        recorder = RecordingSubscriber<Int, TestError>(demand: .none) { _ in
            depth += 1
            deepest = max(deepest, depth)
            recorder.request(.max(1))
            depth -= 1
            return .none
        }
        upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder)
        for value in 1...5 { upstream.send(value) }
        recorder.request(.max(1))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4, 5])
        XCTAssertEqual(deepest, 1)
        recorder.cancel()
        recorder = nil
    }

    func testSynchronousUpstreamFillsTheBufferBeforeTheSubscriberAsks() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        (1...10).publisher.buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(6))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4, 5, 6])
        recorder.request(.unlimited)
        XCTAssertEqual(recorder.values, Array(1...10))
        XCTAssertEqual(recorder.completion, .finished)
    }

    func testCancelReleasesTheBufferedValuesWhileTheSubscriptionKeepsTheSubscriberAsInCombine() {
        let upstream = RecordingPublisher<Token, Never>()
        weak var token: Token?
        var recorder: RecordingSubscriber<Token, Never>? = RecordingSubscriber(demand: .none)
        weak let weakRecorder = recorder
        upstream.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest).subscribe(recorder!)
        do {
            let value = Token()
            token = value
            upstream.send(value)
        }
        XCTAssertNotNil(token)
        recorder?.cancel()
        recorder = nil
        XCTAssertNil(token)
        XCTAssertNotNil(weakRecorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testACancelBeforeTheSubscriptionIsIgnoredAsInCombine() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
        (upstream.given as? any Subscription)?.cancel()
        let subscription = RecordingSubscription()
        upstream.subscriber?.receive(subscription: subscription)

        XCTAssertEqual(subscription.events, [.requested(.max(2))])
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.cancel()
        upstream.release()
    }

    func testCompletionReleasesTheSubscriber() {
        let upstream = RecordingPublisher<Int, TestError>()
        var recorder: RecordingSubscriber<Int, TestError>? = RecordingSubscriber(demand: .unlimited)
        weak let weakRecorder = recorder
        upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder!)
        upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertEqual(recorder?.events, [.subscription, .value(1), .completion(.finished)])
        recorder = nil
        upstream.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testAnEndedBufferLetsGoOfAnUpstreamThatKeepsItsSubscriber() {
        // `handleEvents` keeps its subscriber for good, as Combine's operators do: the buffer is
        // its subscriber, and held on to that upstream's subscription, a cycle that outlived the
        // stream. The test case's ledger check fails on anything left alive.
        for prefetch in [Publishers.PrefetchStrategy.byRequest, .keepFull] {
            let subject = PassthroughSubject<Int, TestError>()
            let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
            var requests: [Subscribers.Demand] = []
            subject.handleEvents(receiveRequest: { requests.append($0) })
                .buffer(size: 2, prefetch: prefetch, whenFull: .dropOldest).subscribe(recorder)
            subject.send(1)
            subject.send(2)
            subject.send(completion: .finished)
            recorder.request(.max(2))
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
            XCTAssertEqual(requests, prefetch == .keepFull ? [.max(2), .max(1)] : [.unlimited])
        }
    }

    /// The seed article's case: a subscriber that takes one value at a time in front of a
    /// subject loses what is sent while it is busy, unless a buffer keeps it.
    func testPacedSubscriberLosesSubjectValuesWithoutBufferAndKeepsThemWithBuffer() {
        func run(_ attach: (PassthroughSubject<String, Never>, RecordingSubscriber<String, Never>) -> Void) -> [String]
        {
            let subject = PassthroughSubject<String, Never>()
            let paced = RecordingSubscriber<String, Never>(demand: .max(1))
            attach(subject, paced)
            // The subscriber is busy with "fat" while "bob" and "man" are sent.
            for word in ["fat", "bob", "man"] { subject.send(word) }
            paced.request(.max(1))
            paced.request(.max(1))
            paced.cancel()
            return paced.values
        }
        XCTAssertEqual(run { subject, paced in subject.subscribe(paced) }, ["fat"])
        XCTAssertEqual(
            run { subject, paced in
                subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest).subscribe(paced)
            }, ["fat", "bob", "man"])
        XCTAssertEqual(
            run { subject, paced in
                subject.buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest).subscribe(paced)
            }, ["fat", "bob", "man"])
    }

    func testPacedSubscriberOnAnotherThreadGetsEveryValueThroughTheBuffer() {
        let subject = PassthroughSubject<Int, Never>()
        let done = expectation(description: "all values")
        let received = UncheckedBox(Locked2([Int]()))
        let queue = DispatchQueue(label: "paced")
        final class Paced: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = Never
            let combineIdentifier = CombineIdentifier()
            var subscription: (any Subscription)?
            let queue: DispatchQueue
            let onValue: (Int) -> Void
            init(queue: DispatchQueue, onValue: @escaping (Int) -> Void) {
                self.queue = queue
                self.onValue = onValue
            }
            func receive(subscription: any Subscription) {
                self.subscription = subscription
                subscription.request(.max(1))
            }
            func receive(_ input: Int) -> Subscribers.Demand {
                // Busy elsewhere: ask for the next one only after the work is done.
                queue.async { [self] in
                    usleep(200)
                    onValue(input)
                    subscription?.request(.max(1))
                }
                return .none
            }
            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let paced = Paced(queue: queue) { value in
            let count = received.value.mutate {
                $0.append(value); return $0.count
            }
            if count == 50 { done.fulfill() }
        }
        subject.buffer(size: 100, prefetch: .byRequest, whenFull: .dropNewest).subscribe(paced)
        for value in 0..<50 { subject.send(value) }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(received.value.mutate { $0 }, Array(0..<50))
        queue.sync {
            paced.subscription?.cancel(); paced.subscription = nil
        }
    }

    func testDescriptionAndMirror() {
        let (upstream, recorder) = make(prefetch: .byRequest)
        upstream.send(4)
        let subscription = recorder.subscription
        XCTAssertEqual(subscription.map { String(describing: $0) }, "Buffer")
        let labels = subscription.map { Mirror(reflecting: $0).children.compactMap(\.label) }
        XCTAssertEqual(labels, ["values", "state", "downstreamDemand", "terminal"])
        XCTAssertEqual(subscription.map { "\(Mirror(reflecting: $0).children.first!.value)" }, "[4]")
        recorder.cancel()
    }
}

/// A tiny lock-protected box for tests that collect from another thread.
final class Locked2<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func mutate<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
