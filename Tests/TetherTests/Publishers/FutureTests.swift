import Foundation
import Synchronization
import Tether
import TetherExtras
import TetherTesting
import XCTest

final class FutureTests: TetherTestCase {
    /// Holds the promise a test fulfils later.
    private final class PromiseBox<Output, Failure: Error>: @unchecked Sendable {
        private let stored = Mutex<Future<Output, Failure>.Promise?>(nil)
        func keep(_ promise: @escaping Future<Output, Failure>.Promise) { stored.withLock { $0 = promise } }
        func fulfil(_ result: Result<Output, Failure>) { stored.withLock { $0 }?(result) }
        func drop() { stored.withLock { $0 = nil } }
    }

    private func waitUntil(timeout: Double = 5, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() && Date() < deadline {
            usleep(1_000)
        }
    }

    func testRunsTheClosureImmediatelyAndOnce() {
        let calls = AtomicCounter()
        let future = Future<Int, Never> { promise in
            calls.increment()
            promise(.success(1))
        }
        XCTAssertEqual(calls.value, 1)
        future.subscribe(RecordingSubscriber<Int, Never>())
        future.subscribe(RecordingSubscriber<Int, Never>())
        XCTAssertEqual(calls.value, 1)
    }

    func testFulfilledBeforeSubscribeDeliversOnDemand() {
        let future = Future<Int, Never> { $0(.success(4)) }
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        future.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(4), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Future"])
    }

    func testFulfilledAfterSubscribeDeliversToTheWaitingSubscriber() {
        let box = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { box.keep($0) }
        let recorder = RecordingSubscriber<Int, Never>()
        future.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        box.fulfil(.success(8))
        XCTAssertEqual(recorder.events, [.subscription, .value(8), .completion(.finished)])
    }

    func testFulfilledWithoutDemandWaitsForTheRequest() {
        let box = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { box.keep($0) }
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        future.subscribe(recorder)
        box.fulfil(.success(8))
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(8), .completion(.finished)])
    }

    func testFailureIsDeliveredWithoutDemand() {
        let box = PromiseBox<Int, TestError>()
        let future = Future<Int, TestError> { box.keep($0) }
        let waiting = RecordingSubscriber<Int, TestError>(demand: .none)
        future.subscribe(waiting)
        box.fulfil(.failure(TestError(id: 9)))
        let late = RecordingSubscriber<Int, TestError>(demand: .none)
        future.subscribe(late)
        XCTAssertEqual(waiting.events, [.subscription, .completion(.failure(TestError(id: 9)))])
        XCTAssertEqual(late.events, [.subscription, .completion(.failure(TestError(id: 9)))])
    }

    func testOnlyTheFirstFulfilmentCounts() {
        let box = PromiseBox<Int, TestError>()
        let future = Future<Int, TestError> { box.keep($0) }
        let early = RecordingSubscriber<Int, TestError>()
        future.subscribe(early)
        box.fulfil(.success(1))
        box.fulfil(.success(2))
        box.fulfil(.failure(TestError()))
        let late = RecordingSubscriber<Int, TestError>()
        future.subscribe(late)
        XCTAssertEqual(early.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(late.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testEverySubscriberBeforeAndAfterFulfilmentGetsTheValue() {
        let box = PromiseBox<String, Never>()
        let future = Future<String, Never> { box.keep($0) }
        let first = RecordingSubscriber<String, Never>()
        let second = RecordingSubscriber<String, Never>(demand: .none)
        future.subscribe(first)
        future.subscribe(second)
        box.fulfil(.success("x"))
        let third = RecordingSubscriber<String, Never>()
        future.subscribe(third)
        second.request(.max(1))
        for recorder in [first, second, third] {
            XCTAssertEqual(recorder.events, [.subscription, .value("x"), .completion(.finished)])
        }
    }

    func testWaitingSubscribersGetTheOutcomeInTheOrderTheySubscribedWhicheverCancelled() {
        for cancelled in 0..<3 {
            let box = PromiseBox<Int, Never>()
            let future = Future<Int, Never> { box.keep($0) }
            var order: [Int] = []
            var cancellables: [AnyCancellable] = []
            for index in 0..<3 {
                cancellables.append(future.sink { _ in order.append(index) })
            }
            cancellables[cancelled].cancel()
            cancellables.append(future.sink { _ in order.append(3) })
            box.fulfil(.success(1))
            XCTAssertEqual(order, [0, 1, 2, 3].filter { $0 != cancelled }, "cancelled: \(cancelled)")
        }
    }

    func testPromiseFulfilledFromATask() {
        let recorder = RecordingSubscriber<Int, Never>()
        Future<Int, Never> { promise in
            Task { promise(.success(42)) }
        }.subscribe(recorder)
        waitUntil { recorder.completion != nil }
        XCTAssertEqual(recorder.events, [.subscription, .value(42), .completion(.finished)])
    }

    func testPromiseFulfilledFromAnotherThreadKeepsAnUnheldFutureAlive() {
        let recorder = RecordingSubscriber<Int, Never>()
        let box = PromiseBox<Int, Never>()
        Future<Int, Never> { box.keep($0) }.subscribe(recorder)
        let thread = Thread { box.fulfil(.success(5)) }
        thread.start()
        waitUntil { recorder.completion != nil }
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
        box.drop()
    }

    func testConcurrentSubscribersAndFulfilmentEachGetTheValueOnce() {
        for _ in 0..<20 {
            let box = PromiseBox<Int, Never>()
            let future = Future<Int, Never> { box.keep($0) }
            let recorders = (0..<16).map { _ in RecordingSubscriber<Int, Never>() }
            DispatchQueueStandIn.concurrentPerform(iterations: 17) { index in
                if index == 16 {
                    box.fulfil(.success(3))
                } else {
                    future.subscribe(recorders[index])
                }
            }
            for recorder in recorders {
                XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
            }
        }
    }

    func testCancelBeforeFulfilmentReleasesTheSubscriberAndSendsNothing() {
        let box = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { box.keep($0) }
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            future.subscribe(recorder)
            subscription = recorder.subscription
        }
        XCTAssertNotNil(weakRecorder, "a waiting subscription holds its subscriber")
        subscription?.cancel()
        XCTAssertNil(weakRecorder, "a cancelled subscription must let go of its subscriber")
        subscription = nil
        XCTAssertEqual(SubscriptionLedger.liveCount, 0, "the future must forget a cancelled subscription")
        box.fulfil(.success(1))
        withExtendedLifetime(future) {}
    }

    func testCancelFromInsideReceiveSubscriptionWithholdsTheOutcome() {
        let box = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { box.keep($0) }
        var received: [Int] = []
        future.subscribe(
            AnySubscriber<Int, Never>(
                receiveSubscription: { $0.cancel() },
                receiveValue: {
                    received.append($0); return .none
                },
                receiveCompletion: { _ in received.append(-1) }))
        XCTAssertEqual(SubscriptionLedger.liveCount, 0, "the future must not keep a cancelled subscription")
        box.fulfil(.success(1))
        XCTAssertEqual(received, [])
    }

    func testAbandonedFutureReleasesItsCancelledSubscription() {
        let box = PromiseBox<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        Future<Int, Never> { box.keep($0) }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.cancel()
        box.drop()
    }

    /// Subscribes `recorder` to a future whose promise `box` keeps, and lets go of the future.
    /// - Returns: Whether the future is still alive.
    private func futureLeftTo(_ box: PromiseBox<Int, Never>, _ recorder: RecordingSubscriber<Int, Never>) -> () -> Bool
    {
        let future = Future<Int, Never> { box.keep($0) }
        future.subscribe(recorder)
        return { [weak future] in future != nil }
    }

    func testAWaitingSubscriptionKeepsItsFutureAliveUntilCancelled() {
        let box = PromiseBox<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        let isAlive = futureLeftTo(box, recorder)
        box.drop()
        XCTAssertTrue(isAlive(), "as in Combine, a subscription waiting for the outcome holds its future")
        recorder.cancel()
        XCTAssertFalse(isAlive(), "a cancelled subscription lets go of its future")
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testASubscriptionLetsGoOfItsFutureOnceSentTheOutcome() {
        let box = PromiseBox<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        let isAlive = futureLeftTo(box, recorder)
        box.fulfil(.success(2))
        box.drop()
        XCTAssertFalse(isAlive(), "a subscription sent the outcome lets go of its future")
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
    }

    /// The mirror's children, described, in order.
    private func described(_ subscription: (any Subscription)?) -> [String] {
        guard let subscription else { return [] }
        return Mirror(reflecting: subscription).children.map { "\($0.label ?? ""): \($0.value)" }
    }

    func testMirrorLetsTheFutureGoOnceThePromiseDeliversItsOutcome() {
        let box = PromiseBox<Int, Never>()
        let future = Future<Int, Never> { box.keep($0) }
        let recorder = RecordingSubscriber<Int, Never>()
        future.subscribe(recorder)
        let subscription = recorder.subscription
        let before = described(subscription)
        XCTAssertEqual(
            before.map { $0.prefix(while: { $0 != ":" }) }, ["parent", "downstream", "hasAnyDemand", "subject"])
        XCTAssertEqual(before.count, 4)
        XCTAssertTrue(before.first?.contains("Future") ?? false)
        XCTAssertTrue(before.dropFirst().first?.contains("RecordingSubscriber") ?? false)
        XCTAssertEqual(before.dropFirst(2).first, "hasAnyDemand: true")
        box.fulfil(.success(1))
        XCTAssertEqual(
            described(subscription), ["parent: nil", "downstream: nil", "hasAnyDemand: true", "subject: nil"])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testMirrorKeepsTheFutureWhenARequestDeliversAKnownOutcome() {
        let future = Future<Int, Never> { $0(.success(4)) }
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        future.subscribe(recorder)
        let subscription = recorder.subscription
        XCTAssertEqual(described(subscription).dropFirst(2).first, "hasAnyDemand: false")
        recorder.request(.max(1))
        let after = described(subscription)
        XCTAssertEqual(after.count, 4)
        XCTAssertTrue(after.first?.contains("Future") ?? false, "\(after)")
        XCTAssertEqual(after.dropFirst().first, "downstream: nil")
        XCTAssertEqual(recorder.events, [.subscription, .value(4), .completion(.finished)])
    }
}
