import Tether
import TetherTesting
import XCTest

final class SubjectSubscriberTests: TetherTestCase {
    func testSubjectRepublishesTheUpstreamValuesAndCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        let cancellable = [1, 2, 3].publisher.subscribe(subject)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        cancellable.cancel()
    }

    func testSubjectReceivesARelayThatAsksUpstreamOnlyOnceItHasDemand() {
        let upstream = RecordingPublisher<Int, TestError>()
        let subject = PassthroughSubject<Int, TestError>()
        let cancellable = upstream.subscribe(subject)
        XCTAssertEqual(upstream.subscription?.events, [])
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        subject.subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(TestError(id: 3)))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.failure(TestError(id: 3)))])
        cancellable.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)], "completed: nothing to cancel")
        upstream.releaseSubscribers()
    }

    func testCurrentValueSubjectAsksItsUpstreamForEverythingAsSoonAsItIsAttached() {
        let upstream = RecordingPublisher<Int, Never>()
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = upstream.subscribe(subject)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)], "no subscriber needed")
        upstream.send(1)
        XCTAssertEqual(subject.value, 1)
        let recorder = RecordingSubscriber<Int, Never>(demand: .unlimited)
        subject.subscribe(recorder)
        upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)], "asked once")
        cancellable.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
        recorder.cancel()
    }

    func testCurrentValueSubjectRunsASynchronousUpstreamAtOnce() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = (1...3).publisher.subscribe(subject)
        XCTAssertEqual(subject.value, 3)
        let recorder = RecordingSubscriber<Int, Never>(demand: .unlimited)
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        cancellable.cancel()
    }

    func testTheSubscriptionHoldsItsSubjectWeaklyAsCombineDoes() {
        let upstream = RecordingPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        let cancellable: AnyCancellable
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            cancellable = upstream.subscribe(subject)
            XCTAssertEqual(upstream.subscription?.events, [])
        }
        XCTAssertNil(weakSubject, "nobody else held the subject")
        XCTAssertEqual(upstream.send(1), [.none], "a value reaches nobody")
        cancellable.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.cancelled])
        upstream.releaseSubscribers()
    }

    func testCancelCancelsUpstreamAndTheSubjectStaysWithItsOwner() {
        let upstream = RecordingPublisher<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        let cancellable = upstream.subscribe(subject)
        upstream.send(1)
        cancellable.cancel()
        upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testDeallocatingTheCancellableEndsTheSubscription() {
        let upstream = PassthroughSubject<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        do {
            let cancellable = upstream.subscribe(subject)
            upstream.send(1)
            _ = cancellable
        }
        upstream.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.cancel()
    }

    func testSubjectReceivesTheRelayDescribedAsSubject() {
        let upstream = RecordingPublisher<Int, Never>()
        var received: [String] = []
        let probe = ProbeSubject { received.append(String(describing: $0)) }
        let cancellable = upstream.subscribe(probe)
        XCTAssertEqual(received, ["Subject"])
        let relay = probe.subscriptions.first
        XCTAssertEqual(
            relay.map { Mirror(reflecting: $0).children.map(\.label) },
            ["downstreamSubject", "upstreamSubscription", "subject"])
        relay?.request(.max(2))
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))])
        cancellable.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2)), .cancelled])
        probe.subscriptions.removeAll()
        upstream.releaseSubscribers()
    }

    func testUpstreamIsCancelledOnceWhenTheReleasedSubjectCancelsTheRelayAgain() {
        let upstream = RecordingPublisher<Int, Never>()
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var cancellable: AnyCancellable?
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            cancellable = upstream.subscribe(subject)
        }
        // The cancel releases the subject, whose deinit cancels the relay it kept as upstream.
        cancellable?.cancel()
        cancellable = nil
        XCTAssertNil(weakSubject)
        XCTAssertEqual(upstream.subscription?.events, [.cancelled])
        upstream.releaseSubscribers()
    }
}

/// A subject that records the subscriptions it is sent.
private final class ProbeSubject: Subject {
    typealias Output = Int
    typealias Failure = Never

    var subscriptions: [any Subscription] = []
    let onSubscription: (any Subscription) -> Void

    init(onSubscription: @escaping (any Subscription) -> Void) {
        self.onSubscription = onSubscription
    }

    func send(_ value: Int) {}

    func send(completion: Subscribers.Completion<Never>) {}

    func send(subscription: any Subscription) {
        subscriptions.append(subscription)
        onSubscription(subscription)
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
    }
}
