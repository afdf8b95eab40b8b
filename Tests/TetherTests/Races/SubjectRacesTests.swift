import Tether
import TetherTesting
import XCTest

/// Races on `PassthroughSubject` and `CurrentValueSubject`.
final class SubjectRacesTests: TetherTestCase {
    private func subscribed(
        _ demand: Subscribers.Demand
    ) -> (PassthroughSubject<Int, TestError>, RaceSubscriber<Int, TestError>) {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = RaceSubscriber<Int, TestError>(demand: demand)
        subject.subscribe(subscriber)
        return (subject, subscriber)
    }

    func testSendRacingSendDeliversBothWithoutOverlap() {
        Race.run(
            setup: { subscribed(.unlimited) },
            { $0.0.send(1) },
            { $0.0.send(2) },
            check: { subject, subscriber in
                XCTAssertEqual(subscriber.values.sorted(), [1, 2])
                XCTAssertEqual(subscriber.overlaps, 0)
                subscriber.cancel()
            })
    }

    func testSendRacingSendWithDemandForOneDeliversExactlyOne() {
        Race.run(
            setup: { subscribed(.max(1)) },
            { $0.0.send(1) },
            { $0.0.send(2) },
            check: { subject, subscriber in
                XCTAssertEqual(subscriber.values.count, 1)
                XCTAssertEqual(subscriber.overlaps, 0)
                subscriber.cancel()
            })
    }

    func testSendRacingCompletionNeverDeliversAValueAfterTheCompletion() {
        Race.run(
            setup: { subscribed(.unlimited) },
            { $0.0.send(1) },
            { $0.0.send(completion: .finished) },
            check: { subject, subscriber in
                let events = subscriber.events
                XCTAssertEqual(subscriber.completions, 1)
                if case .completion = events.last {} else { XCTFail("completion is not last: \(events)") }
                XCTAssertLessThanOrEqual(subscriber.values.count, 1)
                XCTAssertEqual(subscriber.overlaps, 0)
            })
    }

    func testCompletionRacingCompletionDeliversExactlyOne() {
        Race.run(
            setup: { subscribed(.unlimited) },
            { $0.0.send(completion: .finished) },
            { $0.0.send(completion: .failure(TestError(id: 2))) },
            check: { subject, subscriber in
                XCTAssertEqual(subscriber.completions, 1)
                XCTAssertEqual(subscriber.overlaps, 0)
            })
    }

    func testSubscribeRacingSendGivesTheSubscriptionFirstAndASuffixOfTheValues() {
        Race.run(
            setup: { (PassthroughSubject<Int, Never>(), RaceSubscriber<Int, Never>(demand: .unlimited)) },
            { $0.0.subscribe($0.1) },
            { state in
                for value in 1...3 { state.0.send(value) }
            },
            check: { subject, subscriber in
                let events = subscriber.events
                if case .subscription = events.first {} else { XCTFail("subscription is not first: \(events)") }
                let values = subscriber.values
                XCTAssertEqual(values, Array([1, 2, 3].suffix(values.count)))
                subscriber.cancel()
            })
    }

    func testSubscribeRacingCompletionGivesTheSubscriptionFirstThenTheCompletion() {
        // Attached under the subject's lock, handed the subscription after it: a completion sent
        // in between waits for the hand-over (a `merge` or `zip` downstream would otherwise be told
        // of an upstream that has not subscribed).
        Race.run(
            setup: { (PassthroughSubject<Int, TestError>(), RaceSubscriber<Int, TestError>(demand: .unlimited)) },
            { $0.0.subscribe($0.1) },
            { $0.0.send(completion: .failure(TestError(id: 1))) },
            check: { subject, subscriber in
                let events = subscriber.events
                XCTAssertEqual(events.count, 2, "\(events)")
                if case .subscription = events.first {} else { XCTFail("subscription is not first: \(events)") }
                XCTAssertEqual(subscriber.completions, 1)
                XCTAssertEqual(subscriber.overlaps, 0)
            })
        Race.run(
            setup: { (CurrentValueSubject<Int, TestError>(0), RaceSubscriber<Int, TestError>(demand: .unlimited)) },
            { $0.0.subscribe($0.1) },
            { $0.0.send(completion: .finished) },
            check: { subject, subscriber in
                let events = subscriber.events
                if case .subscription = events.first {} else { XCTFail("subscription is not first: \(events)") }
                if case .completion = events.last {} else { XCTFail("completion is not last: \(events)") }
                XCTAssertLessThanOrEqual(subscriber.values.count, 1)
                XCTAssertEqual(subscriber.completions, 1)
            })
    }

    func testSubscribeRacingSendOnCurrentValueSubjectGivesASuffixStartingWithTheCurrentValue() {
        Race.run(
            setup: { (CurrentValueSubject<Int, Never>(0), RaceSubscriber<Int, Never>(demand: .unlimited)) },
            { $0.0.subscribe($0.1) },
            { state in
                for value in 1...3 { state.0.send(value) }
            },
            check: { subject, subscriber in
                let events = subscriber.events
                if case .subscription = events.first {} else { XCTFail("subscription is not first: \(events)") }
                let values = subscriber.values
                XCTAssertFalse(values.isEmpty, "the current value was not delivered")
                // Compared sorted: when a send races with subscribe, CurrentValueSubject can deliver
                // the current value after newer ones (values queued during `start` drain before
                // `latest`); this asserts only that nothing is lost or repeated.
                XCTAssertEqual(values.sorted(), Array([0, 1, 2, 3].suffix(values.count)))
                subscriber.cancel()
            })
    }

    func testCancelRacingDeliveryStopsSignalsAndFreesTheSubscriber() {
        Race.run(
            setup: { () -> Holder in
                let (subject, subscriber) = subscribed(.unlimited)
                return Holder(subject: subject, subscriber: subscriber)
            },
            { $0.subscriber?.cancel() },
            { holder in
                for value in 0..<20 { holder.subject.send(value) }
            },
            check: { holder in
                // At most the one delivery already handed its subscriber (no lock is held across
                // the call); never a stream of them.
                XCTAssertLessThanOrEqual(
                    holder.subscriber?.signalsAfterCancel ?? 0, 1, "signals kept coming after cancel() returned")
                XCTAssertEqual(holder.subscriber?.overlaps, 0)
                let released = WeakBox(holder.subscriber!)
                holder.subscriber = nil
                XCTAssertNil(released.object, "the subject still holds a cancelled subscriber")
            })
    }

    func testCancelRacingSendsOnTheLaneReleasesTheSubscriberWhileTheSubscriptionLives() {
        Race.run(
            setup: { () -> (PassthroughSubject<Int, TestError>, WeakBox, any Subscription) in
                let (subject, subscriber) = subscribed(.unlimited)
                return (subject, WeakBox(subscriber), subscriber.subscription!)
            },
            { state in (1...3).forEach(state.0.send) },
            { $0.2.cancel() },
            check: { state in
                XCTAssertNil(state.1.object, "the cancelled subscription still holds its subscriber")
                state.0.send(4)
            })
    }

    func testCancelRacingCancelOnASubjectSubscriptionReleasesTheSubscriber() {
        Race.run(
            setup: { () -> (PassthroughSubject<Int, TestError>, WeakBox, any Subscription) in
                let (subject, subscriber) = subscribed(.max(1))
                return (subject, WeakBox(subscriber), subscriber.subscription!)
            },
            { $0.2.cancel() },
            { $0.2.cancel() },
            check: { state in
                XCTAssertNil(state.1.object, "the cancelled subscription still holds its subscriber")
                state.0.send(1)
            })
    }
}

/// A round's subject and subscriber, which the check lets go of.
final class Holder: @unchecked Sendable {
    let subject: PassthroughSubject<Int, TestError>
    var subscriber: RaceSubscriber<Int, TestError>?

    init(subject: PassthroughSubject<Int, TestError>, subscriber: RaceSubscriber<Int, TestError>) {
        self.subject = subject
        self.subscriber = subscriber
    }
}
