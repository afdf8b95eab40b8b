@testable import TetherCore
import TetherTesting
import XCTest

/// A subject's subscription delivers on its fast lane once demand is unlimited and nothing is
/// owed, and through its state machine otherwise: the histories are the same either way, the lane
/// opens only when it may, and the subscriber it keeps is let go of like the one the state keeps.
final class SubjectFastLaneTests: TetherTestCase {
    func testTheLaneOpensOnUnlimitedDemandAndNotBefore() throws {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        subject.subscribe(recorder)
        let conduit = try XCTUnwrap(recorder.subscription as? SubjectSubscription<RecordingSubscriber<Int, Never>>)
        XCTAssertFalse(isOpen(conduit), "limited demand goes through the state machine")
        subject.send(1)
        subject.send(2)
        recorder.request(.max(2))
        XCTAssertFalse(isOpen(conduit))
        subject.send(3)
        recorder.request(.unlimited)
        XCTAssertTrue(isOpen(conduit))
        subject.send(4)
        subject.send(5)
        subject.send(completion: .finished)
        subject.send(6)
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(3), .value(4), .value(5), .completion(.finished)])
        XCTAssertNil(conduit.serial, "the completion lets go of the lane's subscriber")
    }

    func testACurrentValueSubjectOpensItsLaneOnceTheOwedValueIsDelivered() throws {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        subject.subscribe(recorder)
        let conduit = try XCTUnwrap(recorder.subscription as? SubjectSubscription<RecordingSubscriber<Int, Never>>)
        subject.send(1)
        XCTAssertFalse(isOpen(conduit), "a latest value is owed")
        recorder.request(.unlimited)
        XCTAssertTrue(isOpen(conduit))
        subject.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        recorder.cancel()
        XCTAssertNil(conduit.serial)
    }

    func testASinkOnASubjectDeliversOnTheLane() throws {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let cancellable = subject.sink { received.append($0) }
        subject.send(1)
        subject.send(2)
        XCTAssertEqual(received, [1, 2])
        cancellable.cancel()
        subject.send(3)
        XCTAssertEqual(received, [1, 2])
    }

    /// A subscriber that keeps its subscription after cancelling it forms a cycle with a
    /// subscription that kept it too: the cancel must let go of both of the subscription's
    /// references, the lane's one once the delivery it happens in returns.
    func testASubscriberCancellingInsideADeliveryOnTheLaneIsLetGo() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: CancellingSubscriber?
        do {
            let subscriber = CancellingSubscriber()
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(1)
            subject.send(2)
            XCTAssertEqual(subscriber.values, [1])
        }
        XCTAssertNil(weakSubscriber, "the cancelled subscription still holds its subscriber")
    }

    func testASubscriberCancelledFromOutsideIsLetGo() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakSubscriber: CancellingSubscriber?
        do {
            let subscriber = CancellingSubscriber(cancelsOn: nil)
            weakSubscriber = subscriber
            subject.subscribe(subscriber)
            subject.send(1)
            subscriber.subscription?.cancel()
            subject.send(2)
            XCTAssertEqual(subscriber.values, [1])
        }
        XCTAssertNil(weakSubscriber, "the cancelled subscription still holds its subscriber")
    }

    /// The cancel finds the turn taken by the thread delivering on the lane, so it leaves the
    /// subscriber to that turn, which lets go of it as it ends, while the subscription lives on.
    func testASubscriberCancelledFromAnotherThreadDuringADeliveryIsLetGoWhenTheDeliveryEnds() {
        let subject = PassthroughSubject<Int, Never>()
        let (subscriber, subscription, inside, proceed) = blockingSubscriber(on: subject)
        let sent = DispatchSemaphore(value: 0)
        Thread {
            subject.send(1)
            sent.signal()
        }.start()
        inside.wait()
        subscription.cancel()
        XCTAssertNotNil(subscriber.object, "the value in flight keeps its subscriber")
        proceed.signal()
        sent.wait()
        XCTAssertNil(subscriber.object, "the turn the cancel overlapped let go of the subscriber")
        subject.send(2)
        withExtendedLifetime(subscription) {}
    }

    /// A subscriber that blocks in its first value until told to go on, and the subscription it
    /// was given, which only the caller keeps.
    private func blockingSubscriber(
        on subject: PassthroughSubject<Int, Never>
    ) -> (WeakBox, any Subscription, DispatchSemaphore, DispatchSemaphore) {
        let subscriber = BlockingSubscriber()
        subject.subscribe(subscriber)
        let subscription = subscriber.subscription!
        subscriber.subscription = nil
        return (WeakBox(subscriber), subscription, subscriber.inside, subscriber.proceed)
    }

    private func isOpen<Downstream>(_ conduit: SubjectSubscription<Downstream>) -> Bool {
        conduit.lane.isOpen
    }
}

/// Asks for everything and blocks in each value until `proceed` is signalled, having signalled
/// `inside`.
private final class BlockingSubscriber: Subscriber, @unchecked Sendable {
    let combineIdentifier = CombineIdentifier()
    let inside = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        inside.signal()
        proceed.wait()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

/// Asks for everything, keeps its subscription for good, and cancels it on receiving
/// `cancelsOn`.
private final class CancellingSubscriber: Subscriber {
    let combineIdentifier = CombineIdentifier()
    let cancelsOn: Int?
    var subscription: (any Subscription)?
    var values: [Int] = []

    init(cancelsOn: Int? = 1) {
        self.cancelsOn = cancelsOn
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        values.append(input)
        if input == cancelsOn { subscription?.cancel() }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
