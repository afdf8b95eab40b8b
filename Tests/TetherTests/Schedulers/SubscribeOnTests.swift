import Foundation
import Tether
import TetherTesting
import XCTest

/// `subscribe(on:)` as Combine runs it (OpenCombine's suite records it): requests pass as they
/// are, events before the subscription are ignored, scheduled work holds the subscription, and a
/// request from inside the upstream's request traps.
final class SubscribeOnTests: TetherTestCase {
    func testRequestsIncludingNonePassToTheUpstreamOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        upstream.subscribe(on: scheduler).subscribe(recorder)
        scheduler.advance()
        recorder.request(.max(2))
        recorder.request(.none)
        XCTAssertEqual(upstream.subscription?.events, [])
        scheduler.advance()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .requested(.none)])
        recorder.cancel()
        scheduler.advance()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .requested(.none), .cancelled])
        upstream.releaseSubscribers()
    }

    func testEventsAndACancelBeforeTheSubscriptionAreIgnored() {
        let upstream = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(recorder)
        let relay = upstream.given as? any Subscriber & Subscription
        XCTAssertEqual(upstream.subscriber?.receive(1), Subscribers.Demand.none)
        upstream.subscriber?.receive(completion: .failure(TestError(id: 1)))
        relay?.cancel()
        XCTAssertEqual(recorder.events, [])

        let subscription = RecordingSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        XCTAssertEqual(upstream.subscriber?.receive(2), Subscribers.Demand.none)
        XCTAssertEqual(recorder.events, [.subscription, .value(2)])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)], "the early cancel did not end the stream")
        recorder.cancel()
        XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
        upstream.release()
    }

    func testScheduledWorkHoldsTheSubscriptionAndARequestBeforeACancelStillArrives() {
        let scheduler = DispatchQueue.test
        let upstream = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: RecordingSubscription?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            weakRecorder = recorder
            upstream.subscribe(on: scheduler).subscribe(recorder)
            scheduler.advance()
            subscription = upstream.subscription
            recorder.request(.max(1))
            recorder.cancel()
            upstream.releaseSubscribers()
        }
        XCTAssertNotNil(weakRecorder, "the scheduled request and cancel hold the subscription")
        scheduler.advance()
        XCTAssertEqual(subscription?.events, [.requested(.max(1)), .cancelled])
        XCTAssertNil(weakRecorder)
    }

    func testTheSubscriberIsHeldAfterTheUpstreamFails() {
        let upstream = RecordingPublisher<Int, TestError>()
        weak var weakRecorder: RecordingSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
            weakRecorder = recorder
            upstream.subscribe(on: ImmediateScheduler.shared).subscribe(recorder)
            subscription = recorder.subscription
            upstream.send(completion: .failure(TestError(id: 1)))
            XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
            upstream.releaseSubscribers()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNotNil(subscription)
        subscription = nil
        XCTAssertNil(weakRecorder)
    }

    func testARequestFromInsideTheUpstreamsRequestTraps() {
        let test = "TetherTests.SubscribeOnTests/testARequestFromInsideTheUpstreamsRequestTraps"
        let outcome = ChildProcessTrap(test: test, id: "recursive request").run {
            let upstream = ManualPublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            upstream.subscribe(on: ImmediateScheduler.shared).subscribe(recorder)
            upstream.subscriber?.receive(subscription: ReenteringSubscription { recorder.request(.max(1)) })
            recorder.request(.max(1))
        }
        guard !ChildProcessTrap.isChildProcess else { return }
        guard case .trapped = outcome else { return XCTFail("a recursive request did not trap: \(outcome)") }
    }
}

/// A subscription that runs `onRequest` from inside every request, once.
private final class ReenteringSubscription: Subscription {
    private var onRequest: (() -> Void)?

    init(onRequest: @escaping () -> Void) {
        self.onRequest = onRequest
    }

    func request(_ demand: Subscribers.Demand) {
        let reenter = onRequest
        onRequest = nil
        reenter?()
    }

    func cancel() {}
}
