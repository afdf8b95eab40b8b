import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

final class AsyncSinkTests: TetherTestCase {
    func testHandlesValuesOneAtATimeThenCompletes() {
        let gauge = ConcurrencyGauge()
        let log = SharedLog<String>()
        let cancellable = (1...5).publisher.asyncSink(
            receiveCompletion: { completion in log.append("completion \(completion)") },
            receiveValue: { value in
                gauge.enter()
                try? await Task.sleep(nanoseconds: 2_000_000)
                log.append("value \(value)")
                gauge.leave()
            })
        XCTAssertTrue(eventually { log.all.count == 6 })
        XCTAssertEqual(log.all, ["value 1", "value 2", "value 3", "value 4", "value 5", "completion finished"])
        XCTAssertEqual(gauge.most, 1)
        _ = cancellable
    }

    func testRequestsTheNextValueOnlyAfterTheClosureReturns() {
        let upstream = RecordingPublisher<Int, Never>()
        let gate = Mutex<UnsafeContinuation<Void, Never>?>(nil)
        let cancellable = upstream.asyncSink { _ in
            await withUnsafeContinuation { continuation in gate.withLock { $0 = continuation } }
        }
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        _ = upstream.send(1)
        XCTAssertTrue(eventually { gate.withLock { $0 != nil } })
        usleep(5_000)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))], "still handling value 1")
        gate.withLock { $0.take() }?.resume()
        XCTAssertTrue(eventually { upstream.subscription?.events == [.requested(.max(1)), .requested(.max(1))] })
        cancellable.cancel()
        XCTAssertEqual(upstream.subscription?.events.last, .cancelled)
        upstream.releaseSubscribers()
    }

    func testCompletionWaitsForTheValueBeingHandled() {
        let subject = PassthroughSubject<Int, TestError>()
        let log = SharedLog<String>()
        let cancellable = subject.asyncSink(
            receiveCompletion: { _ in log.append("completion") },
            receiveValue: { value in
                try? await Task.sleep(nanoseconds: 20_000_000)
                log.append("value \(value)")
            })
        subject.send(1)
        subject.send(completion: .failure(TestError(id: 1)))
        XCTAssertTrue(eventually { log.all.count == 2 })
        XCTAssertEqual(log.all, ["value 1", "completion"])
        _ = cancellable
    }

    func testCancelCancelsTheRunningTask() {
        let subject = PassthroughSubject<Int, Never>()
        let cancelled = AtomicCounter()
        let started = AtomicCounter()
        let cancellable = subject.asyncSink { _ in
            started.increment()
            do { try await Task.sleep(nanoseconds: 10_000_000_000) } catch { cancelled.increment() }
        }
        subject.send(1)
        XCTAssertTrue(eventually { started.value == 1 })
        cancellable.cancel()
        XCTAssertTrue(eventually { cancelled.value == 1 })
    }

    func testReleasingTheCancellableCancels() {
        let upstream = RecordingPublisher<Int, Never>()
        do {
            let cancellable = upstream.asyncSink { _ in }
            _ = cancellable
        }
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .cancelled])
        upstream.releaseSubscribers()
    }
}
