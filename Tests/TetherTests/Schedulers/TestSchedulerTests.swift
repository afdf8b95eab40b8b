import Foundation
import Tether
import TetherTesting
import XCTest

final class TestSchedulerTests: TetherTestCase {
    func testActionsRunInTimeOrderThenSchedulingOrder() {
        let scheduler = DispatchQueue.test
        var log: [String] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("b") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("a") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(2))) { log.append("c") }
        scheduler.schedule { log.append("now") }
        XCTAssertEqual(log, [])
        scheduler.advance()
        XCTAssertEqual(log, ["now"])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log, ["now", "a"])
        scheduler.advance(by: .seconds(1))
        XCTAssertEqual(log, ["now", "a", "b", "c"])
    }

    func testAdvanceMovesTheClockToEachActionAndThenToTheTarget() {
        let scheduler = DispatchQueue.test
        let start = scheduler.now
        var seen: [DispatchQueue.SchedulerTimeType.Stride] = []
        scheduler.schedule(after: start.advanced(by: .seconds(3))) { seen.append(start.distance(to: scheduler.now)) }
        scheduler.advance(to: start.advanced(by: .seconds(5)))
        XCTAssertEqual(seen, [.seconds(3)])
        XCTAssertEqual(start.distance(to: scheduler.now), .seconds(5))
    }

    func testRepeatingActionsRunAtEachIntervalUntilCancelled() {
        let scheduler = DispatchQueue.test
        var ticks: [Int] = []
        let repeating = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(2)) {
            ticks.append(scheduler.tickIndex(of: scheduler.now))
        }
        scheduler.advance(by: .seconds(6))
        XCTAssertEqual(ticks, [1, 3, 5])
        repeating.cancel()
        XCTAssertEqual(scheduler.scheduledCount, 0)
        scheduler.advance(by: .seconds(6))
        XCTAssertEqual(ticks, [1, 3, 5])
    }

    func testRunExecutesOneShotWorkScheduledByOtherWork() {
        let scheduler = DispatchQueue.test
        var log: [Int] = []
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) {
            log.append(scheduler.tickIndex(of: scheduler.now))
            scheduler.schedule(after: scheduler.now.advanced(by: .seconds(4))) {
                log.append(scheduler.tickIndex(of: scheduler.now))
            }
        }
        scheduler.run()
        XCTAssertEqual(log, [1, 5])
    }

    func testCancellingAScheduledActionRemovesIt() {
        let scheduler = DispatchQueue.test
        var ran = false
        let token = scheduler.scheduleCancellable(after: scheduler.now.advanced(by: .seconds(1))) { ran = true }
        token.cancel()
        scheduler.run()
        XCTAssertFalse(ran)
    }

    func testMarbleDiagramsRoundTripThroughARecording() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("-a--b-(cd)--|"))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-a--b-(cd)--|")
        XCTAssertEqual(recording.values, ["a", "b", "c", "d"])
    }

    func testMarblesFailWithTheGivenError() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("-a#", values: ["a": 1], error: TestError(id: 4)))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-1#")
    }

    func testMarblesDropValuesWithoutDemandAndRecordRequests() {
        let scheduler = DispatchQueue.test
        let marbles = scheduler.marbles("abc|")
        let recording = scheduler.record(marbles, demand: .max(1))
        scheduler.advance(by: .seconds(1))
        recording.request(.max(1))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "a-c|")
        XCTAssertEqual(
            marbles.subscriptionEvents,
            [
                MarbleSubscriptionEvent(tick: 0, event: .requested(.max(1))),
                MarbleSubscriptionEvent(tick: 1, event: .requested(.max(1))),
            ])
    }

    func testTicksHaveAConfigurableDuration() {
        let scheduler = TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>(
            now: .init(.init(uptimeNanoseconds: 1)), tick: .milliseconds(10))
        let recording = scheduler.record(scheduler.marbles("-a|"))
        scheduler.advance(by: .milliseconds(10))
        XCTAssertEqual(recording.diagram(), "-a")
        scheduler.advance(by: .milliseconds(10))
        XCTAssertEqual(recording.diagram(), "-a|")
    }

    func testRunLoopAndOperationQueueTestSchedulersKeepDateTime() {
        let runLoop = RunLoop.test
        let recording = runLoop.record(runLoop.marbles("--a|"))
        runLoop.run()
        XCTAssertEqual(recording.diagram(), "--a|")
        let queue = OperationQueue.test
        let start = queue.now
        queue.advance(by: .seconds(2.5))
        XCTAssertEqual(start.distance(to: queue.now), .seconds(2.5))
    }
}
