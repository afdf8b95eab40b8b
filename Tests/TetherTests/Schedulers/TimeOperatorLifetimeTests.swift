import Foundation
import Tether
import TetherExtras
import TetherTesting
import XCTest

final class TimeOperatorLifetimeTests: TetherTestCase {
    func testCancellingCollectByTimeRemovesItsRepeatingTimer() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let recording = scheduler.record(subject.collect(.byTime(scheduler, .seconds(1))))
        XCTAssertEqual(scheduler.scheduledCount, 1)
        recording.cancel()
        XCTAssertEqual(scheduler.scheduledCount, 0)
        XCTAssertEqual(SubscriptionLedger.liveCount, 0)
    }

    func testCancellingStopsTheTimersAndReleasesTheStreams() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let debounced = scheduler.record(subject.debounce(for: .seconds(5), scheduler: scheduler))
        let throttled = scheduler.record(subject.throttle(for: .seconds(5), scheduler: scheduler, latest: true))
        let timed = scheduler.record(subject.timeout(.seconds(5), scheduler: scheduler))
        subject.send(1)
        subject.send(2)
        scheduler.advance()
        debounced.cancel()
        throttled.cancel()
        timed.cancel()
        XCTAssertEqual(scheduler.scheduledCount, 0, "debounce's and timeout's repeating timers are cancelled")
        XCTAssertEqual(SubscriptionLedger.liveCount, 0)
        scheduler.run()
        XCTAssertEqual(debounced.diagram(), "")
        XCTAssertEqual(throttled.diagram(), "2", "the latest value replaced the one still scheduled")
        XCTAssertEqual(timed.diagram(), "(12)")
    }

    func testCancelledDelayDeliversNothingAndReleasesEverythingOnceItsWorkHasRun() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let recording = scheduler.record(subject.delay(for: .seconds(2), scheduler: scheduler))
        subject.send(1)
        recording.cancel()
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "")
        XCTAssertEqual(scheduler.scheduledCount, 0)
        XCTAssertEqual(SubscriptionLedger.liveCount, 0)
    }

    func testCompletionReleasesTheReceiveOnChain() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("a|").receive(on: scheduler).subscribe(on: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "a|")
        XCTAssertEqual(SubscriptionLedger.liveCount, 0)
    }
}
