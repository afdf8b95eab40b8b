import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

/// Thread-safe record of which thread delivered which value.
final class Deliveries: @unchecked Sendable {
    private let entries = Mutex<[(value: Int, thread: ObjectIdentifier)]>([])

    func append(_ value: Int) {
        let thread = ObjectIdentifier(Thread.current)
        entries.withLock { $0.append((value, thread)) }
    }

    var all: [(value: Int, thread: ObjectIdentifier)] { entries.withLock { $0 } }
}

/// How sends into a subject meet, checked the same way for every subject kind and for the
/// operators subjects feed: a send from another thread waits for the delivery under way and then
/// delivers its own value, unless it finds no demand; a send from inside a delivery, on its
/// thread, is delivered at once, nested in it, as in Combine.
enum SubjectDeliveryChecks {
    static func assertASendWaitsForTheDeliveryUnderWay<S: Subject & Sendable>(
        _ subject: S, file: StaticString = #filePath, line: UInt = #line
    ) where S.Output == Int, S.Failure == Never {
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
        XCTAssertEqual(all.map(\.value), [1, 2], file: file, line: line)
        XCTAssertEqual(
            all.map(\.thread), [ObjectIdentifier(sender), ObjectIdentifier(Thread.current)], file: file, line: line)
        cancellable.cancel()
    }

    /// A subscriber with demand for one value is busy with it on another thread, holding the
    /// demand it will return, when the subject sends again: as in Combine, the send finds no
    /// demand and returns at once. A subject drops the value, which does not get the demand
    /// returned later (nor does one behind `zip` or `combineLatest`, which forward demand to
    /// their upstreams); `merge` and `flatMap` keep it, and the demand returned later delivers
    /// it. `subscribe` attaches the subscriber, which asks for one value (a `CurrentValueSubject`
    /// delivers its current value, `0`, at once, and the subscriber asks for one more); `send`
    /// sends `1` from another thread, then `2` from this one; the rest of the history is
    /// `after`'s, which is given the subscription once the busy delivery has returned.
    static func assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
        subscribe: (AnySubscriber<Int, Never>) -> Void, send: @escaping @Sendable (Int) -> Void,
        after: (any Subscription) -> Void, expected: [Int],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let values = Mutex<[Int]>([])
        // Set within `subscribe`, on this thread.
        var subscription: (any Subscription)?
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let returned = Atomic<Bool>(false)
        subscribe(
            AnySubscriber(
                receiveSubscription: { received in
                    subscription = received
                    received.request(.max(1))
                },
                receiveValue: { value in
                    values.withLock { $0.append(value) }
                    guard value == 1 else { return value == 0 ? .max(1) : .none }
                    busy.signal()
                    // Bounded, so that a send that waits for this delivery fails the test rather
                    // than hanging it.
                    _ = release.wait(timeout: .now() + 2)
                    returned.store(true, ordering: .sequentiallyConsistent)
                    return .max(1)
                },
                receiveCompletion: nil))
        let sent = DispatchSemaphore(value: 0)
        let sender = Thread {
            send(1)
            sent.signal()
        }
        sender.start()
        busy.wait()
        send(2)
        XCTAssertFalse(
            returned.load(ordering: .sequentiallyConsistent), "the send waited for the busy subscriber", file: file,
            line: line)
        release.signal()
        // Once the first send returns, the demand its delivery returned has been counted.
        sent.wait()
        if let subscription {
            after(subscription)
        }
        XCTAssertEqual(values.withLock { $0 }, expected, file: file, line: line)
        subscription?.cancel()
        // An operator keeps its subscriber after a cancel, as Combine's do, and the subscriber's
        // closure keeps this variable: let go of it, or the two keep each other.
        subscription = nil
    }

    /// Four threads send 500 values each through `send` to the subscriber `subscribe` attaches;
    /// each thread's values arrive in order, each delivered by its own sender.
    static func assertConcurrentSendersDeliverTheirOwnValues(
        subscribe: (Deliveries) -> AnyCancellable, send: @escaping @Sendable (Int) -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let deliveries = Deliveries()
        let cancellable = subscribe(deliveries)
        let group = DispatchGroup()
        let threads = (0..<4).map { sender in
            Thread {
                for value in 0..<500 { send(sender * 1_000 + value) }
                group.leave()
            }
        }
        for thread in threads {
            group.enter()
            thread.start()
        }
        group.wait()
        let all = deliveries.all
        XCTAssertEqual(all.count, 2_000, file: file, line: line)
        for sender in 0..<4 {
            let own = all.filter { $0.value / 1_000 == sender }
            XCTAssertEqual(own.map(\.value), (0..<500).map { sender * 1_000 + $0 }, "in order", file: file, line: line)
            XCTAssertTrue(
                own.allSatisfy { $0.thread == ObjectIdentifier(threads[sender]) }, "delivered by its sender",
                file: file, line: line)
        }
        cancellable.cancel()
    }

    /// A sink that sends the next value from inside each delivery receives it nested: the shape
    /// of mattgallagher/CombineExploration's `testReentrancy`, which records `[3, 2, 1]` on
    /// Apple's Combine when each value is recorded after its send.
    static func assertASendFromInsideADeliveryNests<S: Subject>(
        _ subject: S, file: StaticString = #filePath, line: UInt = #line
    ) where S.Output == Int, S.Failure == Never {
        var log: [String] = []
        var received: [Int] = []
        let cancellable = subject.sink { value in
            log.append("begin \(value)")
            if value < 3 { subject.send(value + 1) }
            received.append(value)
            log.append("end \(value)")
        }
        subject.send(1)
        XCTAssertEqual(log, ["begin 1", "begin 2", "begin 3", "end 3", "end 2", "end 1"], file: file, line: line)
        XCTAssertEqual(received, [3, 2, 1], file: file, line: line)
        cancellable.cancel()
    }

    /// A value and a completion sent from inside a delivery arrive nested in it, in the order
    /// sent, and a value sent after the completion arrives nowhere.
    static func assertACompletionFromInsideADeliveryFollowsTheValuesBeforeIt<S: Subject>(
        _ subject: S, file: StaticString = #filePath, line: UInt = #line
    ) where S.Output == Int, S.Failure == Never {
        var log: [String] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: { value in
                log.append("begin \(value)")
                if value == 1 {
                    subject.send(2)
                    subject.send(completion: .finished)
                    subject.send(3)
                }
                log.append("end \(value)")
                return .none
            },
            receiveCompletion: { log.append("\($0)") })
        subject.subscribe(subscriber)
        subject.send(1)
        XCTAssertEqual(log, ["begin 1", "begin 2", "end 2", "finished", "end 1"], file: file, line: line)
    }
}
