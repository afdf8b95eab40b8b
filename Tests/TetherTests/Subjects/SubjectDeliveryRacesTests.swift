import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

/// How a subject's sends meet: concurrent senders take turns and deliver their own values;
/// a send from inside a delivery is delivered before the outer send returns, without nesting.
final class SubjectDeliveryRacesTests: TetherTestCase {
    /// Thread-safe record of which thread delivered which value.
    private final class Deliveries: @unchecked Sendable {
        private let entries = Mutex<[(value: Int, thread: ObjectIdentifier)]>([])
        func append(_ value: Int) {
            let thread = ObjectIdentifier(Thread.current)
            entries.withLock { $0.append((value, thread)) }
        }
        var all: [(value: Int, thread: ObjectIdentifier)] { entries.withLock { $0 } }
    }

    func testASendWaitsForTheDeliveryUnderWayAndThenDeliversItsOwnValue() {
        let subject = PassthroughSubject<Int, Never>()
        let deliveries = Deliveries()
        let entered = DispatchSemaphore(value: 0)
        let cancellable = subject.sink { value in
            if value == 1 {
                entered.signal()
                Thread.sleep(forTimeInterval: 0.05)
            }
            deliveries.append(value)
        }
        let sender = Thread { subject.send(1) }
        sender.start()
        entered.wait()
        subject.send(2)
        // By the time this send returns, its own value has been delivered, by this thread.
        let all = deliveries.all
        XCTAssertEqual(all.map(\.value), [1, 2])
        XCTAssertEqual(all.map(\.thread), [ObjectIdentifier(sender), ObjectIdentifier(Thread.current)])
        cancellable.cancel()
    }

    func testCurrentValueSubjectSendersEachDeliverTheirOwnValues() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let deliveries = Deliveries()
        let cancellable = subject.dropFirst().sink { deliveries.append($0) }
        let group = DispatchGroup()
        let threads = (0..<4).map { sender in
            Thread {
                for value in 0..<500 { subject.value = sender * 1_000 + value }
                group.leave()
            }
        }
        for thread in threads {
            group.enter()
            thread.start()
        }
        group.wait()
        let all = deliveries.all
        XCTAssertEqual(all.count, 2_000)
        for sender in 0..<4 {
            let own = all.filter { $0.value / 1_000 == sender }
            XCTAssertEqual(own.map(\.value), (0..<500).map { sender * 1_000 + $0 }, "in order")
            XCTAssertTrue(
                own.allSatisfy { $0.thread == ObjectIdentifier(threads[sender]) }, "delivered by its sender")
        }
        cancellable.cancel()
    }

    func testASendFromInsideADeliveryIsDeliveredBeforeTheOuterSendReturnsWithoutNesting() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var depth = 0
        var deepest = 0
        let cancellable = subject.sink { value in
            depth += 1
            deepest = max(deepest, depth)
            received.append(value)
            if value < 10_000 { subject.send(value + 1) }
            depth -= 1
        }
        subject.send(0)
        XCTAssertEqual(received, Array(0...10_000))
        XCTAssertEqual(deepest, 1)
        cancellable.cancel()
    }

    func testACompletionFromInsideADeliveryFollowsTheValuesSentBeforeIt() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .unlimited) { value in
            if value == 1 {
                subject.send(2)
                subject.send(completion: .finished)
                subject.send(3)
            }
            return .none
        }
        subject.subscribe(recorder)
        subject.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
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
