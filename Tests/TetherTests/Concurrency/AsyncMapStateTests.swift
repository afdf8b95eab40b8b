import Tether
import TetherExtras
import XCTest

@testable import TetherExtras

final class AsyncMapStateTests: XCTestCase {
    typealias Machine = AsyncMapState<Int, TestError, String>

    func testUpstreamDemandIsTheSmallerOfConcurrencyAndDownstreamDemand() {
        var machine = Machine(maxConcurrent: 3)
        XCTAssertEqual(machine.request(.max(2)), 2)
        XCTAssertEqual(machine.request(.max(5)), 1, "capped by maxConcurrent")
        XCTAssertEqual(machine.requested, 3)
        var unlimited = Machine(maxConcurrent: 4)
        XCTAssertEqual(unlimited.request(.unlimited), 4)
    }

    func testInFlightAndWaitingSlotsCountAgainstTheLimit() {
        var machine = Machine(maxConcurrent: 2)
        XCTAssertEqual(machine.request(.unlimited), 2)
        let first = machine.receive()
        let second = machine.receive()
        XCTAssertEqual([first, second], [0, 1])
        XCTAssertEqual(machine.running, 2)
        XCTAssertFalse(machine.complete(1, with: .success(11)), "not the head: nothing to deliver yet")
        XCTAssertEqual(machine.takeUpstreamRequest(), 0, "a result waiting for an earlier one holds its slot")
        XCTAssertTrue(machine.complete(0, with: .success(10)))
        guard case .value(10)? = machine.startDelivery() else { return XCTFail("head first") }
        XCTAssertEqual(machine.delivered(returning: .none), 1)
        guard case .value(11) = machine.nextDelivery() else { return XCTFail("then the next") }
        XCTAssertEqual(machine.delivered(returning: .none), 1)
        guard case .idle = machine.nextDelivery() else { return XCTFail("then idle") }
        XCTAssertFalse(machine.isDelivering)
    }

    func testDeliveryWaitsForDemand() {
        var machine = Machine(maxConcurrent: 2)
        XCTAssertEqual(machine.request(.max(1)), 1)
        let id = machine.receive()!
        _ = machine.complete(id, with: .success(1))
        guard case .value(1)? = machine.startDelivery() else { return XCTFail("delivers with demand") }
        XCTAssertEqual(machine.delivered(returning: .none), 0, "no demand left: nothing more asked")
        guard case .idle = machine.nextDelivery() else { return XCTFail("idle") }
        XCTAssertNil(machine.receive(), "a value nobody asked for is dropped")
    }

    func testOnlyOneDelivererAtATime() {
        var machine = Machine(maxConcurrent: 1)
        _ = machine.request(.max(1))
        _ = machine.receive()
        _ = machine.complete(0, with: .success(5))
        XCTAssertNotNil(machine.startDelivery())
        XCTAssertNil(machine.startDelivery(), "a second thread leaves delivery to the first")
    }

    func testFinishAfterTheResultsStillDue() {
        var machine = Machine(maxConcurrent: 2)
        _ = machine.request(.unlimited)
        _ = machine.receive()
        machine.finish()
        XCTAssertEqual(machine.takeUpstreamRequest(), 0)
        guard case .idle? = machine.startDelivery() else { return XCTFail("waits for the running transform") }
        _ = machine.complete(0, with: .success(1))
        guard case .value(1)? = machine.startDelivery() else { return XCTFail("value first") }
        _ = machine.delivered(returning: .none)
        guard case .finished = machine.nextDelivery() else { return XCTFail("then finished") }
        XCTAssertTrue(machine.isTerminal)
    }

    func testTransformFailureTakesItsPlaceInTheOrder() {
        var machine = Machine(maxConcurrent: 3)
        _ = machine.request(.unlimited)
        for _ in 0..<3 { _ = machine.receive() }
        XCTAssertTrue(machine.attach("t0", to: 0))
        XCTAssertTrue(machine.attach("t2", to: 2))
        _ = machine.complete(1, with: .failure(TestError(id: 1)))
        guard case .idle? = machine.startDelivery() else { return XCTFail("slot 0 still runs") }
        _ = machine.complete(0, with: .success(0))
        guard case .value(0)? = machine.startDelivery() else { return XCTFail("earlier result first") }
        _ = machine.delivered(returning: .none)
        guard case .failure(TestError(id: 1), let cancel) = machine.nextDelivery() else {
            return XCTFail("then the failure")
        }
        XCTAssertEqual(cancel, ["t2"], "the later transform is cancelled")
        XCTAssertTrue(machine.isTerminal)
    }

    func testUpstreamFailureGoesDownstreamAtOnce() {
        var machine = Machine(maxConcurrent: 2)
        _ = machine.request(.unlimited)
        _ = machine.receive()
        XCTAssertTrue(machine.attach("t0", to: 0))
        machine.fail(TestError(id: 5))
        guard case .failure(TestError(id: 5), let cancel)? = machine.startDelivery() else {
            return XCTFail("failure at once")
        }
        XCTAssertEqual(cancel, ["t0"])
    }

    func testCancelReturnsTheRunningHandlesAndEndsEverything() {
        var machine = Machine(maxConcurrent: 2)
        _ = machine.request(.unlimited)
        _ = machine.receive()
        _ = machine.receive()
        XCTAssertTrue(machine.attach("a", to: 0))
        XCTAssertTrue(machine.attach("b", to: 1))
        XCTAssertEqual(machine.cancel(), ["a", "b"])
        XCTAssertEqual(machine.cancel(), [])
        XCTAssertFalse(machine.attach("c", to: 1), "a late handle must be cancelled by the caller")
        XCTAssertFalse(machine.complete(0, with: .success(1)))
        XCTAssertEqual(machine.request(.max(1)), 0)
    }

    func testAttachAfterCompletionIsRefused() {
        var machine = Machine(maxConcurrent: 1)
        _ = machine.request(.max(1))
        _ = machine.receive()
        _ = machine.complete(0, with: .success(1))
        XCTAssertFalse(machine.attach("late", to: 0))
    }
}
