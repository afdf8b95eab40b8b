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

/// How sends into a subject meet, checked the same way for every subject kind: a send waits for
/// the delivery under way and then delivers its own value; a send from inside a delivery is
/// delivered before the outer send returns, without nesting.
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

    static func assertASendFromInsideADeliveryDoesNotNest<S: Subject>(
        _ subject: S, file: StaticString = #filePath, line: UInt = #line
    ) where S.Output == Int, S.Failure == Never {
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
        XCTAssertEqual(received, Array(0...10_000), file: file, line: line)
        XCTAssertEqual(deepest, 1, file: file, line: line)
        cancellable.cancel()
    }

    static func assertACompletionFromInsideADeliveryFollowsTheValuesBeforeIt<S: Subject>(
        _ subject: S, file: StaticString = #filePath, line: UInt = #line
    ) where S.Output == Int, S.Failure == Never {
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
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)], file: file, line: line)
    }
}
