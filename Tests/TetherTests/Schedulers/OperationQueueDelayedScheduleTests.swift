import Foundation
import Synchronization
import Tether
import XCTest

@testable import TetherFoundation

/// The operation queue scheduler's delayed and repeating forms: what the queue is given, and
/// when, as Combine does it (one operation added at once that becomes ready at its date; a
/// repeating schedule adds the next run's operation as each run starts).
final class OperationQueueDelayedScheduleTests: TetherTestCase {
    func testAnActionForLaterIsAddedAtOnceAsOneOperationThatIsReadyAtItsDateAsCombineDoes() throws {
        let log = EventLog()
        let queue = LoggingQueue(log)
        let date = Date().addingTimeInterval(0.2)
        let ranAt = Mutex<Date?>(nil)
        queue.schedule(after: .init(date)) {
            ranAt.withLock { $0 = Date() }
            log.append("run")
        }

        XCTAssertEqual(log.events, ["add"], "added at once")
        let operation = try XCTUnwrap(queue.added.first)
        XCTAssertFalse(operation is BlockOperation)
        XCTAssertTrue(operation is any Cancellable)
        XCTAssertFalse(operation.isReady, "not ready before its date")
        XCTAssertFalse(operation.isAsynchronous)
        XCTAssertFalse(operation.isExecuting)
        XCTAssertFalse(operation.isFinished)
        XCTAssertFalse(operation.isCancelled)

        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(log.events, ["add", "run"])
        XCTAssertTrue(operation.isFinished)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(ranAt.withLock { $0 }).timeIntervalSince(date), -0.01, "not early")

        operation.main()
        XCTAssertEqual(log.events, ["add", "run"], "an operation runs its action once")
    }

    func testAnActionForAPassedDateRunsAtOnce() {
        let log = EventLog()
        let queue = LoggingQueue(log)
        queue.schedule(after: .init(Date().addingTimeInterval(-5))) { log.append("run") }
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(log.events, ["add", "run"])
    }

    func testCancellingTheOperationOfALaterActionDropsTheActionAndLetsTheQueueGoAtOnce() throws {
        let log = EventLog()
        let queue = LoggingQueue(log)
        let token = withToken { token in
            queue.schedule(after: .init(.distantFuture)) {
                withExtendedLifetime(token) { log.append("run") }
            }
        }
        let operation = try XCTUnwrap(queue.added.first)
        XCTAssertNotNil(token(), "the operation holds the action until it runs")

        try XCTUnwrap(operation as? any Cancellable).cancel()
        XCTAssertNil(token(), "cancelling lets go of the action")
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertTrue(operation.isCancelled)
        XCTAssertTrue(operation.isFinished, "the queue let go of it without waiting for its date")
        operation.main()
        XCTAssertEqual(log.events, ["add"])
    }

    func testARepeatingScheduleAddsOneOperationAtOnceThenTheNextOneAsEachRunStartsAsCombineDoes() throws {
        let log = EventLog()
        let queue = LoggingQueue(log)
        let runs = Mutex(0)
        let repetition = Mutex<AnyCancellable?>(nil)
        let stopped = expectation(description: "three runs")
        let cancellable = queue.schedule(after: queue.now.advanced(by: 0.05), interval: 0.05) {
            let run = runs.withLock {
                $0 += 1
                return $0
            }
            log.append("run \(run)")
            if run == 3 {
                repetition.withLock { $0 }?.cancel()
                stopped.fulfill()
            }
        }
        repetition.withLock { $0 = cancellable as? AnyCancellable }
        XCTAssertTrue(cancellable is AnyCancellable)
        XCTAssertEqual(log.events, ["add"])
        let first = try XCTUnwrap(queue.added.first)
        XCTAssertFalse(first is BlockOperation)
        XCTAssertTrue(first is any Cancellable)
        XCTAssertFalse(first.isReady)
        XCTAssertFalse(first.isAsynchronous)

        wait(for: [stopped], timeout: 10)
        // Bounded: a schedule that the third run did not stop would keep the queue busy for ever.
        XCTAssertTrue(waitUntil(timeout: 5) { queue.operationCount == 0 }, "the third run did not stop the schedule")
        cancellable.cancel()
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(log.events, ["add", "add", "run 1", "add", "run 2", "add", "run 3"])
        let operations = queue.added
        XCTAssertEqual(Set(operations.map(ObjectIdentifier.init)).count, 4, "one operation per run")
        XCTAssertEqual(operations.map(\.isFinished), [true, true, true, true])
        XCTAssertEqual(operations.map(\.isCancelled), [false, false, false, true], "the pending run's is cancelled")

        first.main()
        Thread.sleep(forTimeInterval: 0.15)
        XCTAssertEqual(log.events.count, 7, "nothing after the cancel")
    }

    func testDroppingTheCancellableOfARepeatingScheduleStopsItAndReleasesTheAction() throws {
        let log = EventLog()
        let queue = LoggingQueue(log)
        var cancellable: (any Cancellable)?
        let token = withToken { token in
            cancellable = queue.schedule(after: queue.now.advanced(by: 600), interval: 1) {
                withExtendedLifetime(token) { log.append("run") }
            }
        }
        XCTAssertNotNil(token())
        XCTAssertNotNil(cancellable)
        cancellable = nil
        XCTAssertNil(token())
        queue.waitUntilAllOperationsAreFinished()
        let operation = try XCTUnwrap(queue.added.first)
        XCTAssertTrue(operation.isCancelled)
        XCTAssertTrue(operation.isFinished)
        XCTAssertEqual(log.events, ["add"])
    }

    func testRunsOfARepeatingScheduleNeverOverlapOnAConcurrentQueue() {
        let queue = OperationQueue()
        let spans = Mutex<[(start: Date, end: Date)]>([])
        let repetition = Mutex<AnyCancellable?>(nil)
        let stopped = expectation(description: "three runs")
        let cancellable = queue.schedule(after: queue.now, interval: 0.02) {
            let start = Date()
            Thread.sleep(forTimeInterval: 0.05)
            let count = spans.withLock {
                $0.append((start, Date()))
                return $0.count
            }
            if count == 3 {
                repetition.withLock { $0 }?.cancel()
                stopped.fulfill()
            }
        }
        repetition.withLock { $0 = cancellable as? AnyCancellable }
        wait(for: [stopped], timeout: 10)
        // Bounded: a schedule that the third run did not stop would keep the queue busy for ever.
        XCTAssertTrue(waitUntil(timeout: 5) { queue.operationCount == 0 }, "the third run did not stop the schedule")
        cancellable.cancel()
        queue.waitUntilAllOperationsAreFinished()
        let recorded = spans.withLock { $0 }
        XCTAssertEqual(recorded.count, 3)
        for (earlier, later) in zip(recorded, recorded.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later.start, earlier.end)
        }
    }

    func testTheNextRunIsAnIntervalAfterTheLastRunsDateSkippingTheDatesMissed() {
        let date = Date(timeIntervalSinceReferenceDate: 100)
        func next(_ interval: TimeInterval, now: TimeInterval) -> TimeInterval {
            OperationQueueRepetition.date(after: date, every: interval, now: date.addingTimeInterval(now))
                .timeIntervalSince(date)
        }
        XCTAssertEqual(next(1, now: 0.25), 1, "on time")
        XCTAssertEqual(next(1, now: 1), 1, "due now")
        XCTAssertEqual(next(1, now: 1.5), 2, "one date missed")
        XCTAssertEqual(next(1, now: 3), 3, "due now, two missed")
        XCTAssertEqual(next(1, now: 3.25), 4)
        XCTAssertEqual(next(0, now: 2), 0, "no interval: at once")
        XCTAssertEqual(next(-1, now: 2), -1, "a negative interval: at once")
    }
}

/// Hands `body` a new token for the action it schedules to capture; returns what is left of it.
private func withToken(_ body: (Token) -> Void) -> () -> Token? {
    let token = Token()
    body(token)
    return { [weak token] in token }
}

/// What happened, in order: the operations added to a queue and the actions run.
private final class EventLog: Sendable {
    private let log = Mutex<[String]>([])

    var events: [String] { log.withLock { $0 } }

    func append(_ event: String) { log.withLock { $0.append(event) } }
}

/// An operation queue that logs each operation handed to `addOperation(_:)`, and keeps them.
private final class LoggingQueue: OperationQueue, @unchecked Sendable {
    private let log: EventLog
    private let recorded = Mutex<[Operation]>([])

    var added: [Operation] { recorded.withLock { $0 } }

    init(_ log: EventLog) {
        self.log = log
        super.init()
    }

    override func addOperation(_ op: Operation) {
        recorded.withLock { $0.append(op) }
        log.append("add")
        super.addOperation(op)
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        log.append("add block")
        super.addOperation(block)
    }
}
