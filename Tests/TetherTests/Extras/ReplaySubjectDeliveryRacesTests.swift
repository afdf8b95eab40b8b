import Tether
import TetherExtras
import TetherTesting
import XCTest

/// How a replay subject's sends meet: concurrent senders take turns and deliver their own
/// values, and one that finds no demand leaves its value in the backlog without waiting; a send
/// from inside a delivery, on its thread, is delivered at once, nested in it, as a
/// `PassthroughSubject`'s is, without overtaking the values owed before it.
final class ReplaySubjectDeliveryRacesTests: TetherTestCase {
    func testASendWaitsForTheDeliveryUnderWayAndThenDeliversItsOwnValue() {
        SubjectDeliveryChecks.assertASendWaitsForTheDeliveryUnderWay(ReplaySubject<Int, Never>(bufferSize: 2))
    }

    func testASendThatFindsNoDemandJoinsTheBacklogAtOnceWhileTheSubscriberIsBusy() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        SubjectDeliveryChecks.assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
            subscribe: { subject.subscribe($0) }, send: { subject.send($0) },
            after: { subscription in
                // 2 waited in the backlog and went out on the demand the busy delivery returned;
                // 3 waits there for this request.
                subject.send(3)
                subscription.request(.max(1))
            }, expected: [1, 2, 3])
    }

    func testConcurrentSendersEachDeliverTheirOwnValuesInOrder() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        SubjectDeliveryChecks.assertConcurrentSendersDeliverTheirOwnValues(
            subscribe: { deliveries in subject.sink { deliveries.append($0) } },
            send: { subject.send($0) })
    }

    func testASendFromInsideADeliveryIsDeliveredAtOnceNestedInIt() {
        SubjectDeliveryChecks.assertASendFromInsideADeliveryNests(ReplaySubject<Int, Never>(bufferSize: 2))
    }

    func testACompletionFromInsideADeliveryFollowsTheValuesSentBeforeIt() {
        SubjectDeliveryChecks.assertACompletionFromInsideADeliveryFollowsTheValuesBeforeIt(
            ReplaySubject<Int, Never>(bufferSize: 2))
    }

    func testDemandReturnedFromDeliveriesReleasesTheBacklogInOrder() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        let recorder = RecordingSubscriber<Int, Never>(demand: .none) { _ in .max(1) }
        subject.subscribe(recorder)
        for value in 1...5 { subject.send(value) }
        recorder.request(.max(1))
        subject.send(6)
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .value(4), .value(5), .value(6)])
        recorder.cancel()
    }

    func testASendFromInsideADeliveryDoesNotOvertakeTheBacklogItsRequestReleased() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        subject.send(1)
        subject.send(2)
        var recorder: RecordingSubscriber<Int, Never>?
        recorder = RecordingSubscriber(demand: .max(1)) { value in
            guard value == 1 else { return .none }
            // The request makes 2 due; the value sent after it comes after 2.
            recorder?.request(.max(1))
            subject.send(3)
            return .max(1)
        }
        subject.subscribe(recorder!)
        XCTAssertEqual(recorder?.events, [.subscription, .value(1), .value(2), .value(3)])
        recorder?.cancel()
        recorder = nil
    }
}
