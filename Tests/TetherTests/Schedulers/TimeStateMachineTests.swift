@testable import TetherCore
import TetherTesting
import XCTest

/// The time operators' state machines, driven directly: no threads, no schedulers.
final class TimeStateMachineTests: TetherTestCase {
    func testDebounceStateOnlyTheCurrentPeriodFires() {
        var state = DebounceState<Int>()
        state.request(.max(1))
        let first = state.receive(1)
        let second = state.receive(2)
        XCTAssertNil(state.fire(first!))
        XCTAssertEqual(state.fire(second!), 2)
        XCTAssertNil(state.fire(second!))
        let third = state.receive(3)
        XCTAssertNil(state.fire(third!), "no demand left: the value is dropped")
        XCTAssertNil(state.pending)
    }

    func testDebounceStateEndDropsThePendingValueAndSilencesTimers() {
        var state = DebounceState<Int>()
        state.request(.unlimited)
        let generation = state.receive(1)!
        XCTAssertTrue(state.end())
        XCTAssertFalse(state.end())
        XCTAssertNil(state.fire(generation))
        XCTAssertNil(state.receive(2))
    }

    func testThrottleStateEmitsAtOnceWhenTheWindowIsOpen() {
        var state = ThrottleState<String, Int>(interval: 3, latest: true)
        state.request(.unlimited)
        guard case .emit("a") = state.receive("a", now: 0) else { return XCTFail("first value goes out at once") }
        guard case .arm(3) = state.receive("b", now: 1) else { return XCTFail("second value waits for the window") }
        guard case .kept = state.receive("c", now: 2) else { return XCTFail("armed: kept") }
        XCTAssertEqual(state.fire(now: 3), "c")
        guard case .emit("d") = state.receive("d", now: 6) else { return XCTFail("window open again") }
    }

    func testThrottleStateFirstKeepsTheFirstHeldValueAndFlushesItOnFinish() {
        var state = ThrottleState<String, Int>(interval: 3, latest: false)
        state.request(.unlimited)
        _ = state.receive("a", now: 0)
        _ = state.receive("b", now: 1)
        _ = state.receive("c", now: 2)
        let (ended, last) = state.finish()
        XCTAssertTrue(ended)
        XCTAssertEqual(last, "b")
        XCTAssertNil(state.fire(now: 3))
        XCTAssertFalse(state.finish().ended)
    }

    func testThrottleStateDropsValuesWithoutDemand() {
        var state = ThrottleState<String, Int>(interval: 3, latest: true)
        guard case .kept = state.receive("a", now: 0) else { return XCTFail("no demand: dropped") }
        state.request(.max(1))
        guard case .emit("b") = state.receive("b", now: 1) else { return XCTFail("nothing went out yet: at once") }
    }

    func testTimeoutStateStaleTimersDoNothing() {
        var state = TimeoutState()
        let first = state.restart()!
        let second = state.restart()!
        XCTAssertFalse(state.fire(first))
        XCTAssertTrue(state.fire(second))
        XCTAssertNil(state.restart())
        XCTAssertFalse(state.end())
    }

    func testTimeoutStateEndBeatsTheTimer() {
        var state = TimeoutState()
        let generation = state.restart()!
        XCTAssertTrue(state.end())
        XCTAssertFalse(state.fire(generation))
    }

    func testCollectByTimeStateByTimeGathersUntilTheTick() {
        var state = CollectByTimeState<Int>(count: nil)
        XCTAssertEqual(state.initialUpstreamDemand, .unlimited)
        XCTAssertEqual(state.request(.max(1)), .none)
        XCTAssertNil(state.receive(1))
        XCTAssertNil(state.receive(2))
        XCTAssertEqual(state.tick(), [1, 2])
        XCTAssertNil(state.receive(3))
        XCTAssertNil(state.tick(), "no demand: keep gathering")
        XCTAssertEqual(state.finish(failed: false).rest, [3])
    }

    func testCollectByTimeStateByTimeOrCountPublishesFullGroupsAndAsksForCountPerGroup() {
        var state = CollectByTimeState<Int>(count: 2)
        XCTAssertEqual(state.initialUpstreamDemand, .none)
        XCTAssertEqual(state.request(.max(2)), .max(4))
        XCTAssertNil(state.receive(1))
        XCTAssertEqual(state.receive(2), [1, 2])
        XCTAssertNil(state.receive(3))
        XCTAssertEqual(state.tick(), [3])
        XCTAssertNil(state.tick())
    }

    func testCollectByTimeStateFailureDropsTheRest() {
        var state = CollectByTimeState<Int>(count: nil)
        _ = state.receive(1)
        let (ended, rest) = state.finish(failed: true)
        XCTAssertTrue(ended)
        XCTAssertNil(rest)
        XCTAssertFalse(state.finish(failed: false).ended)
    }

    func testDeliveryQueueDeliversInOrderWithOneDeliverer() {
        let recorder = RecordingSubscriber<Int, Never>()
        var queue = DeliveryQueue(downstream: recorder)
        XCTAssertTrue(queue.enqueue(.value(1)))
        XCTAssertTrue(queue.enqueue(.value(2)))
        guard case .deliver(.value(1), _) = queue.due() else { return XCTFail("first due delivers the first event") }
        guard case .idle = queue.due() else { return XCTFail("a second action while draining only marks it ready") }
        guard case .deliver(.value(2), _) = queue.next() else { return XCTFail("the deliverer picks it up") }
        guard case .idle = queue.next() else { return XCTFail("nothing more is ready") }
        XCTAssertFalse(queue.draining)
    }

    func testDeliveryQueueCompletionReleasesTheDownstream() {
        let recorder = RecordingSubscriber<Int, Never>()
        var queue = DeliveryQueue(downstream: recorder)
        _ = queue.enqueue(.completion(.finished))
        _ = queue.enqueue(.value(9))
        guard case .deliver(.completion(.finished), _) = queue.due() else { return XCTFail("completion first") }
        XCTAssertNil(queue.downstream)
        XCTAssertFalse(queue.enqueue(.value(3)))
        guard case .idle = queue.due() else { return XCTFail("nothing after the completion") }
    }

    func testDeliveryQueueCancelDropsEverything() {
        let recorder = RecordingSubscriber<Int, Never>()
        var queue = DeliveryQueue(downstream: recorder)
        _ = queue.enqueue(.value(1))
        let (downstream, events) = queue.cancel()
        XCTAssertNotNil(downstream)
        XCTAssertEqual(events.count, 1)
        guard case .idle = queue.due() else { return XCTFail("nothing after cancel") }
    }
}
