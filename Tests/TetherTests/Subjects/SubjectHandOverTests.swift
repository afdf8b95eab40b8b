@testable import TetherCore
import TetherTesting
import XCTest

/// A subject attaches a subscriber's conduit under its lock and hands the subscription over after
/// releasing it, so a completion sent from another thread can reach the conduit in between. These
/// tests play that interleaving on one thread, through the conduit the subject would make: the
/// completion waits for the hand-over, so the subscriber never sees it first.
final class SubjectHandOverTests: TetherTestCase {
    func testAPassthroughSubjectsCompletionSentBeforeTheHandOverArrivesAfterTheSubscription() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        let conduit = SubjectSubscription(kind: .passthroughSubject, downstream: recorder, parent: subject, latest: nil)
        XCTAssertNil(subject.withHub { $0.attach(SubjectEntry(conduit)) })
        subject.send(1)
        subject.send(completion: .failure(TestError()))
        XCTAssertEqual(recorder.events, [])
        conduit.start(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError()))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["PassthroughSubject"])
    }

    func testACurrentValueSubjectsCompletionSentBeforeTheHandOverFollowsTheValueDemandedInIt() {
        let subject = CurrentValueSubject<Int, TestError>(5)
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        let conduit = SubjectSubscription(kind: .currentValueSubject, downstream: recorder, parent: subject, latest: 5)
        XCTAssertNil(subject.lock.withLock { _ in subject.hub.attach(SubjectEntry(conduit)) })
        subject.send(completion: .finished)
        conduit.start(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testASubscriberThatCancelsInsideItsSubscriptionIsNotSentTheCompletionHeldForIt() {
        final class Log { var events: [String] = [] }
        let log = Log()
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { subscription in
                log.events.append("subscription")
                subscription.cancel()
            },
            receiveValue: { value in
                log.events.append("\(value)")
                return .none
            },
            receiveCompletion: { _ in log.events.append("completion") })
        let subject = PassthroughSubject<Int, TestError>()
        let conduit = SubjectSubscription(
            kind: .passthroughSubject, downstream: subscriber, parent: subject, latest: nil)
        XCTAssertNil(subject.withHub { $0.attach(SubjectEntry(conduit)) })
        subject.send(completion: .finished)
        conduit.start(subscriber)
        XCTAssertEqual(log.events, ["subscription"])
    }

    func testTheStateKeepsOneCompletionUntilTheHandOverAndTerminatesOnTheSecondAsk() {
        var state = SubjectSubscriptionState(
            kind: .passthroughSubject, downstream: RecordingSubscriber<Int, TestError>(),
            parent: PassthroughSubject<Int, TestError>(), latest: nil)
        XCTAssertNil(state.finish(.failure(TestError())))
        XCTAssertNil(state.finish(.finished), "the first completion is the one kept")
        XCTAssertNotNil(state.downstream)
        state.startHandingOver()
        XCTAssertEqual(state.endHandingOver(), .failure(TestError()))
        XCTAssertNil(state.endHandingOver())
        XCTAssertNotNil(state.finish(.finished))
        XCTAssertNil(state.downstream)
    }
}
