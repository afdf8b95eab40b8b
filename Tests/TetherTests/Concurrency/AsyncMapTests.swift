import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

final class AsyncMapTests: TetherTestCase {
    func testResultsComeOutInInputOrderWithBoundedConcurrency() {
        let gauge = ConcurrencyGauge()
        let recorder = RecordingSubscriber<Int, Never>()
        (0..<20).publisher
            .asyncMap(maxConcurrent: 3) { value -> Int in
                gauge.enter()
                // Later elements finish first, to scramble completion order.
                try? await Task.sleep(nanoseconds: UInt64((20 - value) % 4) * 2_000_000)
                gauge.leave()
                return value * 10
            }
            .subscribe(recorder)
        XCTAssertTrue(eventually(timeout: 10) { recorder.completion != nil })
        XCTAssertEqual(recorder.values, (0..<20).map { $0 * 10 })
        XCTAssertEqual(recorder.completion, .finished)
        XCTAssertLessThanOrEqual(gauge.most, 3)
        XCTAssertGreaterThan(gauge.most, 1, "transforms did overlap")
    }

    func testUpstreamIsAskedOnlyForWhatCanBeProcessed() {
        let upstream = RecordingPublisher<Int, Never>()
        let gate = Mutex<[Int: UnsafeContinuation<Void, Never>]>([:])
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(5))
        upstream.asyncMap(maxConcurrent: 2) { value -> Int in
            await withUnsafeContinuation { continuation in gate.withLock { $0[value] = continuation } }
            return value
        }.subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))], "min(maxConcurrent, demand)")
        _ = upstream.send(0)
        _ = upstream.send(1)
        XCTAssertTrue(eventually { gate.withLock { $0.count } == 2 })
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(2))], "both slots busy: no more")
        gate.withLock { $0.removeValue(forKey: 0) }?.resume()
        XCTAssertTrue(eventually { recorder.values == [0] })
        XCTAssertTrue(eventually { upstream.subscription?.events == [.requested(.max(2)), .requested(.max(1))] })
        recorder.cancel()
        gate.withLock { $0.removeValue(forKey: 1) }?.resume()
        upstream.releaseSubscribers()
    }

    func testDownstreamDemandLimitsUpstreamDemand() {
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        upstream.asyncMap(maxConcurrent: 8) { $0 + 1 }.subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        _ = upstream.send(1)
        XCTAssertTrue(eventually { recorder.values == [2] })
        usleep(5_000)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))], "no demand left downstream")
        recorder.request(.max(2))
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .requested(.max(2))])
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testCancelCancelsRunningTransformsAndUpstream() {
        let upstream = RecordingPublisher<Int, Never>()
        let cancelled = AtomicCounter()
        let started = AtomicCounter()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.asyncMap(maxConcurrent: 2) { value -> Int in
            started.increment()
            do {
                try await Task.sleep(nanoseconds: 10_000_000_000)
            } catch {
                cancelled.increment()
            }
            return value
        }.subscribe(recorder)
        _ = upstream.send(1)
        _ = upstream.send(2)
        XCTAssertTrue(eventually { started.value == 2 })
        recorder.cancel()
        XCTAssertTrue(eventually { cancelled.value == 2 })
        XCTAssertEqual(upstream.subscription?.events.last, .cancelled)
        XCTAssertEqual(recorder.values, [])
        upstream.releaseSubscribers()
    }

    func testUpstreamFailureIsPassedOnAtOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        subject.asyncMap(maxConcurrent: 2) { value -> Int in
            try? await Task.sleep(nanoseconds: 10_000_000_000)
            return value
        }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError(id: 8)))
        XCTAssertTrue(eventually { recorder.completion != nil })
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 8)))])
    }

    func testTryAsyncMapFailsInOrder() {
        let recorder = RecordingSubscriber<Int, any Error>()
        (0..<6).publisher.tryAsyncMap(maxConcurrent: 3) { value -> Int in
            if value == 2 { throw TestError(id: 2) }
            try await Task.sleep(nanoseconds: 3_000_000)
            return value
        }.subscribe(recorder)
        XCTAssertTrue(eventually { recorder.completion != nil })
        XCTAssertEqual(recorder.values, [0, 1], "earlier results first, then the failure")
        guard case .failure(let error as TestError)? = recorder.completion else { return XCTFail("no failure") }
        XCTAssertEqual(error, TestError(id: 2))
    }

    func testTryAsyncMapPassesUpstreamFailureAsAnyError() {
        let recorder = RecordingSubscriber<Int, any Error>()
        Fail<Int, TestError>(error: TestError(id: 4)).tryAsyncMap(maxConcurrent: 1) { $0 }.subscribe(recorder)
        XCTAssertTrue(eventually { recorder.completion != nil })
        guard case .failure(let error as TestError)? = recorder.completion else { return XCTFail("no failure") }
        XCTAssertEqual(error, TestError(id: 4))
    }

    func testDescription() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Just(1).asyncMap(maxConcurrent: 1) { $0 }.subscribe(recorder)
        XCTAssertEqual(recorder.subscriptionDescriptions, ["AsyncMap"])
        recorder.cancel()
    }
}
