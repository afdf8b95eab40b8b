import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

/// The Foundation schedulers on real clocks: short delays, bounded waits.
final class RealSchedulerSmokeTests: TetherTestCase {
    func testDispatchQueueDelaysAndDeliversOnTheQueue() {
        let queue = DispatchQueue(label: "tether.smoke")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let done = expectation(description: "finished")
        let seen = Mutex<[Int]>([])
        let start = DispatchTime.now()
        let cancellable = [1, 2].publisher
            .delay(for: .milliseconds(20), scheduler: queue)
            .sink(
                receiveCompletion: { _ in done.fulfill() },
                receiveValue: { value in
                    seen.withLock { $0.append(DispatchQueue.getSpecific(key: key) == 7 ? value : -value) }
                })
        wait(for: [done], timeout: 5)
        XCTAssertEqual(seen.withLock { $0 }, [1, 2])
        XCTAssertGreaterThanOrEqual(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds, 20_000_000)
        cancellable.cancel()
    }

    func testDispatchQueueRepeatingScheduleStopsWhenCancelled() {
        let queue = DispatchQueue(label: "tether.smoke.repeat")
        let count = Mutex(0)
        let three = expectation(description: "three runs")
        let repeating = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
            if count.withLock({
                $0 += 1; return $0
            }) == 3 {
                three.fulfill()
            }
        }
        wait(for: [three], timeout: 5)
        repeating.cancel()
        queue.sync {}
        let stopped = count.withLock { $0 }
        Thread.sleep(forTimeInterval: 0.03)
        queue.sync {}
        XCTAssertEqual(count.withLock { $0 }, stopped)
    }

    func testDispatchQueueStrideUnits() {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        XCTAssertEqual(Stride.seconds(1).magnitude, 1_000_000_000)
        XCTAssertEqual(Stride.milliseconds(3).magnitude, 3_000_000)
        XCTAssertEqual(Stride.microseconds(3).magnitude, 3_000)
        XCTAssertEqual(Stride.nanoseconds(3).magnitude, 3)
        XCTAssertEqual(Stride.seconds(0.5).magnitude, 500_000_000)
        let literal: Stride = 2
        XCTAssertEqual(literal, .seconds(2))
        let time = DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 10))
        XCTAssertEqual(time.distance(to: time.advanced(by: .milliseconds(1))), .milliseconds(1))
    }

    func testDispatchQueueStrideArithmeticAndCodingAsCombine() throws {
        typealias Stride = DispatchQueue.SchedulerTimeType.Stride
        XCTAssertEqual(Stride(exactly: 2 as UInt64)?.magnitude, 2_000_000_000, "seconds, as the literal")
        XCTAssertNil(Stride(exactly: UInt64.max))
        XCTAssertEqual((Stride.seconds(2) * .seconds(3)).magnitude, 6_000_000_000, "a product in seconds")
        XCTAssertEqual((Stride.nanoseconds(15) * .nanoseconds(2)).magnitude, 0)
        var stride = Stride.milliseconds(500)
        stride *= .seconds(4)
        XCTAssertEqual(stride, .seconds(2))
        let encoded = try JSONEncoder().encode(["value": Stride.nanoseconds(419_872)])
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"{"value":{"_nanoseconds":419872}}"#)
        XCTAssertEqual(try JSONDecoder().decode([String: Stride].self, from: encoded), ["value": .nanoseconds(419_872)])
    }

    func testDispatchQueueTimeClampsAtTheEndsAsCombine() {
        typealias Time = DispatchQueue.SchedulerTimeType
        let time = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let far = Time(DispatchTime(uptimeNanoseconds: UInt64(Int.max)))
        XCTAssertEqual(time.advanced(by: .nanoseconds(.max)).dispatchTime, .distantFuture)
        XCTAssertEqual(
            Time(DispatchTime(uptimeNanoseconds: 1)).advanced(by: .nanoseconds(-5)).dispatchTime.uptimeNanoseconds, 1)
        XCTAssertEqual(time.distance(to: Time(.distantFuture)), .nanoseconds(.max))
        XCTAssertEqual(Time(.distantFuture).distance(to: time), .nanoseconds(.max), "too long either way")
        XCTAssertEqual(far.distance(to: time), .nanoseconds(-(Int.max - 10_000)))
        XCTAssertEqual(far.distance(to: far), .nanoseconds(0))
    }

    func testImmediateSchedulerStrideHasNoUnitsOfTime() {
        typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
        XCTAssertEqual(
            [Stride.seconds(2), .seconds(1.5), .milliseconds(3), .microseconds(3), .nanoseconds(3)], [0, 0, 0, 0, 0])
        XCTAssertEqual(Stride(3) * 2, 6)
    }

    func testRunLoopReceivesOnTheCurrentRunLoop() {
        let runLoop = RunLoop.current
        let seen = Mutex<[Int]>([])
        let finished = Mutex(false)
        let cancellable = [1, 2, 3].publisher
            .receive(on: runLoop)
            .delay(for: .milliseconds(10), scheduler: runLoop)
            .sink(
                receiveCompletion: { _ in finished.withLock { $0 = true } },
                receiveValue: { v in seen.withLock { $0.append(v) } })
        let deadline = Date().addingTimeInterval(5)
        while !finished.withLock({ $0 }), Date() < deadline {
            _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
        XCTAssertEqual(seen.withLock { $0 }, [1, 2, 3])
        XCTAssertTrue(finished.withLock { $0 })
        cancellable.cancel()
        // The run loop lets go of a fired timer, and of the action it holds, on a later turn.
        for _ in 0..<5 {
            _ = runLoop.run(mode: .default, before: Date().addingTimeInterval(0.01))
        }
    }

    func testOperationQueueRunsAnImmediateActionAsOneBlockOperationAddedAsCombineDoes() throws {
        let queue = AddRecordingQueue()
        queue.isSuspended = true
        let runs = Mutex(0)
        queue.schedule { runs.withLock { $0 += 1 } }
        XCTAssertEqual(queue.blocks, 0)
        XCTAssertEqual(queue.added.count, 1)
        let operation = try XCTUnwrap(queue.added.first as? BlockOperation)
        queue.isSuspended = false
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(runs.withLock { $0 }, 1)
        XCTAssertEqual(queue.added.count, 1)
        XCTAssertTrue(operation.isFinished)
    }

    func testOperationQueueDebouncesAndTimesOut() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let subject = PassthroughSubject<Int, TestError>()
        let done = expectation(description: "timed out")
        let seen = Mutex<[String]>([])
        let cancellable =
            subject
            // Wide enough that a test thread held up between the two sends still sends the
            // second within the debounce.
            .debounce(for: .milliseconds(150), scheduler: queue)
            .timeout(.milliseconds(500), scheduler: queue, customError: { TestError(id: 5) })
            .sink(
                receiveCompletion: { completion in
                    seen.withLock { $0.append("\(completion)") }
                    done.fulfill()
                },
                receiveValue: { value in seen.withLock { $0.append("\(value)") } })
        subject.send(1)
        subject.send(2)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(seen.withLock { $0 }, ["2", "failure(TestError(5))"])
        cancellable.cancel()
    }
}

/// An operation queue that records the operations handed to `addOperation(_:)`, and the blocks
/// handed to its block form.
private final class AddRecordingQueue: OperationQueue, @unchecked Sendable {
    private let log = Mutex<(operations: [Operation], blocks: Int)>(([], 0))

    var added: [Operation] { log.withLock { $0.operations } }
    var blocks: Int { log.withLock { $0.blocks } }

    override func addOperation(_ op: Operation) {
        log.withLock { $0.operations.append(op) }
        super.addOperation(op)
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        log.withLock { $0.blocks += 1 }
        super.addOperation(block)
    }
}
