import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

final class AwaitingPublisherTests: TetherTestCase {
    func testFirstValueRequestsOneAndCancels() {
        let publisher = RecordingPublisher<Int, Never>()
        let feeder = Thread {
            while publisher.subscription?.totalDemand ?? Subscribers.Demand.none == .none { usleep(200) }
            _ = publisher.send(5)
        }
        feeder.start()
        runAsync {
            let value = try await publisher.firstValue
            XCTAssertEqual(value, 5)
        }
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .cancelled])
        publisher.releaseSubscribers()
    }

    func testFirstValueOfAnEmptyPublisherIsNil() {
        runAsync {
            let value = try await Empty<Int, Never>().firstValue
            XCTAssertNil(value)
        }
    }

    func testFirstValueThrowsTheFailure() {
        runAsync {
            do {
                _ = try await Fail<Int, TestError>(error: TestError(id: 3)).firstValue
                XCTFail("no error")
            } catch let error as TestError {
                XCTAssertEqual(error, TestError(id: 3))
            }
        }
    }

    func testCollectValuesGathersEverything() {
        runAsync {
            let values = try await (1...4).publisher.collectValues()
            XCTAssertEqual(values, [1, 2, 3, 4])
        }
    }

    func testCancellingTheTaskCancelsTheSubscriptionAndThrows() {
        let publisher = RecordingPublisher<Int, Never>()
        let outcome = Mutex<String?>(nil)
        let task = Task {
            do {
                _ = try await publisher.collectValues()
                outcome.withLock { $0 = "returned" }
            } catch is CancellationError {
                outcome.withLock { $0 = "cancelled" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }
        XCTAssertTrue(eventually { publisher.subscription != nil })
        task.cancel()
        XCTAssertTrue(eventually { outcome.withLock { $0 } != nil })
        XCTAssertEqual(outcome.withLock { $0 }, "cancelled")
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
    }

    func testAlreadyCancelledTaskNeverSubscribesForLong() {
        let publisher = RecordingPublisher<Int, Never>()
        runAsync {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await publisher.firstValue
            }
            await XCTAssertThrowsAsync { _ = try await task.value }
        }
        XCTAssertTrue(publisher.subscriptions.allSatisfy { $0.events.last == .cancelled })
        publisher.releaseSubscribers()
    }

    func testFutureValueNonThrowing() {
        let future = Future<Int, Never> { promise in
            Task {
                try? await Task.sleep(nanoseconds: 5_000_000)
                promise(.success(42))
            }
        }
        runAsync {
            let value = await future.value
            XCTAssertEqual(value, 42)
        }
    }

    func testFutureValueThrowing() {
        let future = Future<Int, TestError> { $0(.failure(TestError(id: 9))) }
        runAsync {
            do {
                _ = try await future.value
                XCTFail("no error")
            } catch let error as TestError {
                XCTAssertEqual(error, TestError(id: 9))
            }
        }
    }

    func testFutureFromAsyncClosure() {
        let calls = AtomicCounter()
        let future = Future {
            calls.increment()
            return 7
        }
        let inferred: Future<Int, Never> = future
        runAsync {
            let first = await inferred.value
            let second = await inferred.value
            XCTAssertEqual([first, second], [7, 7])
        }
        XCTAssertEqual(calls.value, 1, "the work runs once, shared by every subscriber")
    }

    func testFutureFromThrowingAsyncClosure() {
        let failing = Future { () async throws -> Int in throw TestError(id: 2) }
        let succeeding = Future { () async throws -> Int in 3 }
        runAsync {
            let value = try await succeeding.value
            XCTAssertEqual(value, 3)
            do {
                _ = try await failing.value
                XCTFail("no error")
            } catch let error as TestError {
                XCTAssertEqual(error, TestError(id: 2))
            }
        }
    }

    func testFutureFromAsyncClosureWithAwaitInsideTheClosure() {
        @Sendable func work() async -> String { "done" }
        @Sendable func failingWork() async throws -> String { throw TestError(id: 1) }
        let plain = Future { await work() }
        let throwing = Future { try await failingWork() }
        let recorder = RecordingSubscriber<String, Never>()
        plain.subscribe(recorder)
        let failed = RecordingSubscriber<String, any Error>()
        throwing.subscribe(failed)
        XCTAssertTrue(eventually { recorder.completion != nil && failed.completion != nil })
        XCTAssertEqual(recorder.events, [.subscription, .value("done"), .completion(.finished)])
        guard case .failure(let error as TestError)? = failed.completion else { return XCTFail("no failure") }
        XCTAssertEqual(error, TestError(id: 1))
    }
}
