import Tether
import TetherTesting
import XCTest

final class ConnectableTests: TetherTestCase {
    func testMakeConnectableProducesNothingUntilConnected() {
        let upstream = RecordingPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        connectable.subscribe(first)
        connectable.subscribe(second)
        XCTAssertEqual(upstream.subscriptions.count, 0)
        let connection = connectable.connect()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.send(1)
        connection.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(first.events, [.subscription, .value(1)])
        XCTAssertEqual(second.events, [.subscription, .value(1)])
        first.cancel()
        second.cancel()
        upstream.releaseSubscribers()
    }

    func testEverySubscriberAttachedBeforeConnectGetsAJust() {
        let connectable = Just("Sent").makeConnectable()
        let first = RecordingSubscriber<String, Never>()
        let second = RecordingSubscriber<String, Never>()
        connectable.subscribe(first)
        connectable.subscribe(second)
        XCTAssertEqual(first.events, [.subscription])
        let connection = connectable.connect()
        XCTAssertEqual(first.events, [.subscription, .value("Sent"), .completion(.finished)])
        XCTAssertEqual(second.events, [.subscription, .value("Sent"), .completion(.finished)])
        let late = RecordingSubscriber<String, Never>()
        connectable.subscribe(late)
        XCTAssertEqual(late.events, [.subscription, .completion(.finished)])
        withExtendedLifetime(connection) {}
    }

    func testDroppingTheConnectionCancelsIt() {
        let upstream = RecordingPublisher<Int, Never>()
        let connectable = upstream.makeConnectable()
        let recorder = RecordingSubscriber<Int, Never>()
        connectable.subscribe(recorder)
        _ = connectable.connect()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testMulticastCreatesItsSubjectLazilyAndOnce() {
        let upstream = RecordingPublisher<Int, TestError>()
        var made = 0
        let multicast = upstream.multicast { () -> PassthroughSubject<Int, TestError> in
            made += 1
            return PassthroughSubject()
        }
        XCTAssertEqual(made, 0)
        let first = RecordingSubscriber<Int, TestError>()
        let second = RecordingSubscriber<Int, TestError>()
        multicast.subscribe(first)
        multicast.subscribe(second)
        let connection = multicast.connect()
        XCTAssertEqual(made, 1)
        upstream.send(5)
        upstream.send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(first.events, [.subscription, .value(5), .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(second.events, first.events)
        XCTAssertEqual(first.subscriptionDescriptions, ["Multicast"])
        withExtendedLifetime(connection) {}
        upstream.releaseSubscribers()
    }

    func testMulticastThroughAGivenSubjectSharesIt() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let upstream = RecordingPublisher<Int, Never>()
        let multicast = upstream.multicast(subject: subject)
        let recorder = RecordingSubscriber<Int, Never>()
        multicast.subscribe(recorder)
        subject.send(1)
        let connection = multicast.connect()
        upstream.send(2)
        XCTAssertEqual(recorder.values, [0, 1, 2])
        XCTAssertEqual(subject.value, 2)
        connection.cancel()
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testMulticastPassesDemandThroughToTheSubject() {
        let upstream = RecordingPublisher<Int, Never>()
        let multicast = upstream.multicast(subject: PassthroughSubject())
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1)) { $0 == 1 ? .max(1) : .none }
        multicast.subscribe(recorder)
        let connection = multicast.connect()
        for value in 1...4 { upstream.send(value) }
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.request(.max(1))
        upstream.send(5)
        XCTAssertEqual(recorder.values, [1, 2, 5])
        recorder.cancel()
        connection.cancel()
        upstream.releaseSubscribers()
    }

    func testMulticastRequestsTheDemandReturnedForAValueAndIgnoresNoneAsInCombine() {
        let subject = PassthroughSubject<Int, Never>()
        let multicast = subject.multicast(subject: PassthroughSubject())
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1)) { $0 == 2 ? .max(1) : .none }
        multicast.subscribe(recorder)
        let connection = multicast.connect()
        recorder.request(.none)
        subject.send(2)
        subject.send(3)
        subject.send(4)
        XCTAssertEqual(recorder.values, [2, 3])
        recorder.cancel()
        connection.cancel()
    }

    func testAutoconnectCountsOnlyTheFirstCancelOfASubscription() {
        let upstream = RecordingPublisher<Int, Never>()
        let autoconnect = upstream.makeConnectable().autoconnect()
        let first = RecordingSubscriber<Int, Never>(demand: .max(1))
        let second = RecordingSubscriber<Int, Never>(demand: .max(2))
        autoconnect.subscribe(first)
        autoconnect.subscribe(second)
        let subscription = first.subscription
        subscription?.cancel()
        subscription?.cancel()
        subscription?.request(.max(5))
        XCTAssertEqual(upstream.subscriptions.map(\.events), [[.requested(.unlimited)]])
        second.cancel()

        XCTAssertEqual(upstream.subscriptions.map(\.events), [[.requested(.unlimited), .cancelled]])
        upstream.releaseSubscribers()
    }

    func testAutoconnectConnectsOnTheFirstSubscriberAfterAttachingIt() {
        let upstream = RecordingPublisher<Int, Never>()
        let auto = upstream.makeConnectable().autoconnect()
        XCTAssertEqual(upstream.subscriptions.count, 0)
        let first = RecordingSubscriber<Int, Never>()
        auto.subscribe(first)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        let second = RecordingSubscriber<Int, Never>()
        auto.subscribe(second)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        upstream.send(3)
        XCTAssertEqual(first.values, [3])
        XCTAssertEqual(second.values, [3])
        first.cancel()
        second.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testASubscriberAttachedWhileConnectingConnectsAgainAndTheLastConnectionIsKeptAsCombineDoes() {
        let upstream = RecordingPublisher<Int, Never>()
        let auto = upstream.makeConnectable().autoconnect()
        let first = RecordingSubscriber<Int, Never>()
        let second = RecordingSubscriber<Int, Never>()
        auto.handleEvents(receiveSubscription: { _ in auto.subscribe(second) }).subscribe(first)
        // `second` connected first; `first`'s connection replaced it, and dropping a multicast's
        // connection cancels it.
        XCTAssertEqual(
            upstream.subscriptions.map(\.events),
            [[.requested(.unlimited), .cancelled], [.requested(.unlimited)]])
        upstream.send(1)
        XCTAssertEqual(first.values, [1])
        XCTAssertEqual(second.values, [1])
        // The kept connection counts one subscriber: the first cancel ends it.
        first.cancel()
        XCTAssertEqual(
            upstream.subscriptions.map(\.events),
            [[.requested(.unlimited), .cancelled], [.requested(.unlimited), .cancelled]])
        second.cancel()
        XCTAssertEqual(upstream.subscriptions.count, 2)
        auto.subscribe(first)
        XCTAssertEqual(upstream.subscriptions.count, 3)
        first.cancel()
        upstream.releaseSubscribers()
    }

    func testAConnectionMadeAfterEverySubscriberCancelledIsCancelledAtOnce() {
        let upstream = RecordingPublisher<Int, Never>()
        let auto = upstream.makeConnectable().autoconnect()
        let recorder = RecordingSubscriber<Int, Never>()
        auto.handleEvents(receiveSubscription: { $0.cancel() }).subscribe(recorder)
        // The subject asks its upstream for nothing while it has no subscriber with demand.
        XCTAssertEqual(upstream.subscriptions.map(\.events), [[.cancelled]])
        let next = RecordingSubscriber<Int, Never>()
        auto.subscribe(next)
        XCTAssertEqual(upstream.subscriptions.count, 2)
        next.cancel()
        XCTAssertEqual(upstream.subscriptions.last?.events, [.requested(.unlimited), .cancelled])
        // The cancel above went past `handleEvents`, which still holds the recorder.
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testAutoconnectKeepsCountingSubscribersThatCompleted() {
        let upstream = RecordingPublisher<Int, Never>()
        let subject = PassthroughSubject<Int, Never>()
        let auto = upstream.multicast(subject: subject).autoconnect()
        let first = RecordingSubscriber<Int, Never>()
        auto.subscribe(first)
        subject.send(completion: .finished)
        XCTAssertEqual(first.completion, .finished)
        // Had the completion uncounted `first`, this subscriber would connect again.
        let second = RecordingSubscriber<Int, Never>()
        auto.subscribe(second)
        XCTAssertEqual(second.completion, .finished)
        XCTAssertEqual(upstream.subscriptions.count, 1)
        upstream.releaseSubscribers()
    }

    func testAutoconnectSubscriptionDescribesItselfAsTheUpstreams() {
        let auto = PassthroughSubject<Int, Never>().makeConnectable().autoconnect()
        let recorder = RecordingSubscriber<Int, Never>()
        auto.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Multicast"])
        recorder.cancel()
    }

    func testAutoconnectReleasesTheConnectionAndSubscriberOnCancel() {
        weak var weakSubject: PassthroughSubject<Int, Never>?
        var recorder: RecordingSubscriber<Int, Never>? = RecordingSubscriber()
        weak let weakRecorder = recorder
        do {
            let subject = PassthroughSubject<Int, Never>()
            weakSubject = subject
            let auto = subject.makeConnectable().autoconnect()
            auto.subscribe(recorder!)
            recorder?.cancel()
        }
        recorder = nil
        XCTAssertNil(weakRecorder)
        XCTAssertNil(weakSubject)
    }
}
