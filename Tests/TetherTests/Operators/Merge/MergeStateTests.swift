@testable import TetherCore
import TetherTesting
import XCTest

/// The merge state machine on its own, without threads: every transition and the steps it asks for.
final class MergeStateTests: TetherTestCase {
    private func started(_ upstreams: Int) -> (MergeState, [RecordingSubscription]) {
        var machine = MergeState(upstreams: upstreams)
        XCTAssertIdle(machine.delivered(.none))
        let subscriptions = (0..<upstreams).map { _ in RecordingSubscription() }
        for (index, subscription) in subscriptions.enumerated() {
            XCTAssertEqual(machine.attach(index, subscription), .max(1))
        }
        return (machine, subscriptions)
    }

    func testStartsDrainingWhileTheSubscriptionIsHandedOver() {
        var machine = MergeState(upstreams: 2)
        XCTAssertTrue(machine.draining)
        let (unlimit, step) = machine.request(.max(2))
        XCTAssertTrue(unlimit.isEmpty)
        XCTAssertIdle(step)
        XCTAssertIdle(machine.delivered(.none))
        XCTAssertFalse(machine.draining)
        XCTAssertEqual(machine.demand, .max(2))
    }

    func testAnEmptiedQueueKeepsASmallBufferAndLetsGoOfALargeOne() {
        var (machine, _) = started(2)
        _ = machine.request(.unlimited)
        for burst in [10, 1_000] {
            XCTAssertEqual(machine.receive(0, 0), .deliverNow(refill: false))
            for value in 0..<burst { XCTAssertEqual(machine.receive(1, value), .queued) }
            for _ in 0..<burst {
                guard case .deliver = machine.delivered(.none) else { return XCTFail("expected a delivery") }
            }
            XCTAssertIdle(machine.delivered(.none))
            XCTAssertFalse(machine.hasQueued)
            if burst <= MergeState.keptCapacity {
                XCTAssertGreaterThanOrEqual(machine.queue.capacity, burst, "kept for the next burst")
            } else {
                XCTAssertLessThanOrEqual(machine.queue.capacity, MergeState.keptCapacity, "let go of")
            }
        }
    }

    func testADeliveredValueLeavesTheQueueWhileOthersStillWait() {
        final class Box {}
        var (machine, _) = started(2)
        _ = machine.request(.unlimited)
        XCTAssertEqual(machine.receive(0, 0), .deliverNow(refill: false))
        weak var delivered: Box?
        do {
            let box = Box()
            delivered = box
            XCTAssertEqual(machine.receive(1, box), .queued)
            XCTAssertEqual(machine.receive(1, Box()), .queued)
            guard case .deliver(let value, _) = machine.delivered(.none) else { return XCTFail("expected a delivery") }
            XCTAssertTrue(value as? Box === box)
        }
        XCTAssertTrue(machine.hasQueued)
        XCTAssertNil(delivered, "a value gone downstream is not kept while the queue is not empty")
    }

    func testValueWithDemandIsDeliveredDirectlyAndOthersQueueBehindTheDrainer() {
        var (machine, _) = started(2)
        _ = machine.request(.max(2))
        XCTAssertEqual(machine.receive(0, 1), .deliverNow(refill: true))
        XCTAssertEqual(machine.receive(1, 2), .queued, "the drainer is busy")
        guard case .deliver(let value, let refill) = machine.delivered(.none) else {
            return XCTFail("expected a delivery")
        }
        XCTAssertEqual(value as? Int, 2)
        XCTAssertNotNil(refill)
        XCTAssertIdle(machine.delivered(.none))
        XCTAssertEqual(machine.demand, .none)
        XCTAssertEqual(machine.receive(0, 3), .queued, "no demand")
        let (_, step) = machine.request(.max(1))
        guard case .deliver(let next, _) = step else { return XCTFail("expected a delivery") }
        XCTAssertEqual(next as? Int, 3)
    }

    func testUnlimitedDemandIsForwardedOnceAndStopsRefills() {
        var (machine, subscriptions) = started(3)
        let (unlimit, _) = machine.request(.unlimited)
        XCTAssertEqual(unlimit.count, 3)
        XCTAssertTrue(unlimit[0] as AnyObject === subscriptions[0])
        XCTAssertTrue(machine.request(.max(1)).unlimit.isEmpty)
        XCTAssertEqual(machine.receive(2, 1), .deliverNow(refill: false))
    }

    func testSettlingEndsTheDrainersTurnOnlyWhenNothingQueuedCanGo() {
        var (machine, _) = started(2)
        _ = machine.request(.max(1))
        XCTAssertEqual(machine.receive(0, 1), .deliverNow(refill: true))
        XCTAssertEqual(machine.receive(1, 2), .queued)
        XCTAssertTrue(machine.settle(.none), "no demand for the queued value")
        XCTAssertFalse(machine.draining)
        XCTAssertEqual(machine.demand, .none)
        let (_, step) = machine.request(.max(1))
        guard case .deliver(let value, _) = step else { return XCTFail("expected the queued value") }
        XCTAssertEqual(value as? Int, 2)
        XCTAssertEqual(machine.receive(0, 3), .queued)
        XCTAssertFalse(machine.settle(.max(1)), "the returned demand lets the queued value go")
        XCTAssertTrue(machine.draining)
        XCTAssertEqual(machine.demand, .none, "a refused settle changes nothing")
        guard case .deliver(let next, _) = machine.delivered(.max(1)) else { return XCTFail("expected a delivery") }
        XCTAssertEqual(next as? Int, 3)
        XCTAssertTrue(machine.settle(.max(2)))
        XCTAssertEqual(machine.demand, .max(2))
        XCTAssertEqual(machine.receive(1, 4), .deliverNow(refill: true))
    }

    func testSettlingLeavesACompletionToTheDrainer() {
        var (machine, _) = started(1)
        _ = machine.request(.max(1))
        XCTAssertEqual(machine.receive(0, 1), .deliverNow(refill: true))
        XCTAssertIdle(machine.complete(0, .finished).step)
        XCTAssertFalse(machine.settle(.none))
        guard case .complete(.finished) = machine.delivered(.none) else { return XCTFail("expected the end") }
    }

    func testAttachAfterTheEndOrTwiceIsRefused() {
        var machine = MergeState(upstreams: 2)
        XCTAssertEqual(machine.attach(0, RecordingSubscription()), .max(1))
        XCTAssertNil(machine.attach(0, RecordingSubscription()))
        _ = machine.cancel()
        XCTAssertNil(machine.attach(1, RecordingSubscription()))
    }

    func testFinishWaitsForEveryUpstreamAndForTheQueue() {
        var (machine, _) = started(2)
        XCTAssertEqual(machine.receive(0, 1), .queued)
        XCTAssertIdle(machine.complete(0, .finished).step)
        XCTAssertEqual(machine.receive(0, 9), .dropped, "a finished upstream is ignored")
        XCTAssertIdle(machine.complete(1, .finished).step)
        let (_, step) = machine.request(.max(1))
        guard case .deliver = step else { return XCTFail("expected the queued value") }
        guard case .complete(.finished) = machine.delivered(.none) else { return XCTFail("expected the completion") }
    }

    func testFinishWithNothingQueuedMakesTheCallerTheDrainer() {
        var (machine, _) = started(2)
        _ = machine.complete(1, .finished)
        let (cancel, step) = machine.complete(0, .finished)
        XCTAssertTrue(cancel.isEmpty)
        guard case .complete(.finished) = step else { return XCTFail("expected the completion") }
        XCTAssertTrue(machine.draining)
        XCTAssertTrue(machine.cancel().cancel.isEmpty, "cancel after the end does nothing")
    }

    func testFailureWhileDrainingIsHandedToTheDrainerAndCancelsEveryUpstreamTheFailingOneFirst() {
        var (machine, subscriptions) = started(3)
        _ = machine.request(.max(5))
        XCTAssertEqual(machine.receive(0, 1), .deliverNow(refill: true))
        XCTAssertEqual(machine.receive(1, 2), .queued)
        let (cancel, step) = machine.complete(2, .failure(TestError()))
        XCTAssertIdle(step)
        XCTAssertEqual(
            cancel.map { ObjectIdentifier($0 as AnyObject) },
            [
                ObjectIdentifier(subscriptions[2]), ObjectIdentifier(subscriptions[0]),
                ObjectIdentifier(subscriptions[1]),
            ])
        guard case .complete(.failure) = machine.delivered(.none) else { return XCTFail("the queued value is dropped") }
    }

    func testCancelWhileDrainingLeavesTheReleaseToTheDrainer() {
        var (machine, _) = started(2)
        _ = machine.request(.max(1))
        XCTAssertEqual(machine.receive(0, 1), .deliverNow(refill: true))
        let (cancel, release) = machine.cancel()
        XCTAssertEqual(cancel.count, 2)
        XCTAssertFalse(release)
        guard case .release = machine.delivered(.max(3)) else { return XCTFail("the drainer lets go") }
        XCTAssertEqual(machine.receive(1, 2), .dropped)
        XCTAssertIdle(machine.request(.max(1)).step)
    }

    func testCancelWhileIdleReleasesAtOnce() {
        var (machine, _) = started(2)
        XCTAssertTrue(machine.cancel().release)
        XCTAssertFalse(machine.cancel().release, "only once")
    }

    private func XCTAssertIdle(_ step: MergeState.Step, file: StaticString = #filePath, line: UInt = #line) {
        guard case .idle = step else { return XCTFail("expected .idle, got \(step)", file: file, line: line) }
    }
}
