import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

/// How a subject's sends meet: concurrent senders take turns and deliver their own values;
/// a send from inside a delivery, on its thread, is delivered at once, nested in it.
final class SubjectDeliveryRacesTests: TetherTestCase {
    func testASendWaitsForTheDeliveryUnderWayAndThenDeliversItsOwnValue() {
        SubjectDeliveryChecks.assertASendWaitsForTheDeliveryUnderWay(PassthroughSubject<Int, Never>())
    }

    func testASendThatFindsNoDemandIsDroppedAtOnceWhileTheSubscriberIsBusy() {
        let subject = PassthroughSubject<Int, Never>()
        SubjectDeliveryChecks.assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
            subscribe: { subject.subscribe($0) }, send: { subject.send($0) },
            after: { _ in subject.send(3) }, expected: [1, 3])
    }

    func testCurrentValueSubjectSendThatFindsNoDemandIsNotDeliveredOnTheDemandTheBusySubscriberReturns() {
        let subject = CurrentValueSubject<Int, Never>(0)
        SubjectDeliveryChecks.assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
            subscribe: { subject.subscribe($0) }, send: { subject.send($0) },
            after: { subscription in
                // The demand the busy delivery returned does not deliver the value dropped
                // meanwhile: the next value sent takes it, and once a value has gone out, a
                // request owes the subscriber nothing (Combine's rule).
                subject.send(3)
                subscription.request(.max(1))
            }, expected: [0, 1, 3])
    }

    func testCurrentValueSubjectSendersEachDeliverTheirOwnValues() {
        let subject = CurrentValueSubject<Int, Never>(0)
        SubjectDeliveryChecks.assertConcurrentSendersDeliverTheirOwnValues(
            subscribe: { deliveries in subject.dropFirst().sink { deliveries.append($0) } },
            send: { subject.value = $0 })
    }

    func testASendFromInsideADeliveryIsDeliveredAtOnceNestedInIt() {
        SubjectDeliveryChecks.assertASendFromInsideADeliveryNests(PassthroughSubject<Int, Never>())
    }

    func testACompletionFromInsideADeliveryFollowsTheValuesSentBeforeIt() {
        SubjectDeliveryChecks.assertACompletionFromInsideADeliveryFollowsTheValuesBeforeIt(
            PassthroughSubject<Int, Never>())
    }

    func testSubscribingWhileAnotherThreadSendsReturnsOnceTheSubscriptionIsHandedOver() {
        let subject = PassthroughSubject<Int, Never>()
        let stop = Atomic<Bool>(false)
        let sending = DispatchSemaphore(value: 0)
        let sender = Thread {
            sending.signal()
            while !stop.load(ordering: .relaxed) { subject.send(1) }
        }
        sender.start()
        sending.wait()
        let start = Date()
        for _ in 0..<200 {
            let cancellable = subject.sink { _ in Thread.sleep(forTimeInterval: 0.000_01) }
            cancellable.cancel()
        }
        stop.store(true, ordering: .relaxed)
        // Each `sink` hands over its subscription and returns: it never drains another
        // thread's values. (200 subscribe/cancel pairs take milliseconds; a generous bound.)
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }
}

/// A `CurrentValueSubject`'s value, owed on the first request, is delivered within that request
/// when it is made from inside `receive(subscription:)`, as Combine does; one level deep.
final class CurrentValueSubjectRequestOrderTests: TetherTestCase {
    private final class Logging: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never
        var log: [String] = []
        var subscription: (any Subscription)?
        func receive(subscription: any Subscription) {
            self.subscription = subscription
            log.append("subscription")
            subscription.request(.max(1))
            log.append("requested")
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            log.append("value \(input)")
            subscription?.request(.max(1))
            log.append("requested again")
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) { log.append("completion") }
    }

    func testTheValueComesWithinARequestMadeWhileTakingTheSubscription() {
        let subject = CurrentValueSubject<Int, Never>(7)
        let subscriber = Logging()
        subject.subscribe(subscriber)
        XCTAssertEqual(subscriber.log, ["subscription", "value 7", "requested again", "requested"])
        subject.send(8)
        XCTAssertEqual(subscriber.log.suffix(2), ["value 8", "requested again"])
        subscriber.subscription?.cancel()
    }
}
