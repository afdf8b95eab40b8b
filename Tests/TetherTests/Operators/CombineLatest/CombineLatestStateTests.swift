@testable import TetherCore
import TetherTesting
import XCTest

/// The combine-latest state machine on its own, without threads, over `Int` upstreams.
final class CombineLatestStateTests: TetherTestCase {
    private typealias Machine = CombineLatestState<CombiningSlotArray<LatestSlot<Int?>>>

    private func started(_ upstreams: Int, demand: Subscribers.Demand) -> Machine {
        var machine = Machine(upstreams: upstreams)
        if demand > 0 { _ = machine.requested(demand) }
        XCTAssertIdle(machine.afterDelivery(.none).step)
        for index in 0..<upstreams {
            XCTAssertEqual(machine.attach(index, RecordingSubscription()), demand, "late subscribers get the total")
        }
        return machine
    }

    func testNothingUntilEveryUpstreamHasAValueThenTheLatestOfEach() {
        var machine = started(3, demand: .unlimited)
        XCTAssertIdle(machine.receive(0, 1))
        XCTAssertIdle(machine.receive(1, 2))
        XCTAssertIdle(machine.receive(0, 3))
        guard case .deliver(let values) = machine.receive(2, 4) else { return XCTFail("expected a combination") }
        XCTAssertEqual(values, [3, 2, 4])
    }

    func testValuesWhileDrainingAreQueuedAsCombinations() {
        var machine = started(2, demand: .unlimited)
        _ = machine.receive(0, 1)
        guard case .deliver = machine.receive(1, 1) else { return XCTFail("expected a combination") }
        XCTAssertIdle(machine.receive(0, 2))
        XCTAssertIdle(machine.receive(1, 3))
        guard case .deliver(let first) = machine.afterDelivery(.none).step,
            case .deliver(let second) = machine.afterDelivery(.none).step
        else { return XCTFail("expected the queued combinations") }
        XCTAssertEqual(first, [2, 1])
        XCTAssertEqual(second, [2, 3])
        XCTAssertIdle(machine.afterDelivery(.none).step)
    }

    func testWithoutDemandACombinationIsDroppedAndTheCompletionGoesAtOnce() {
        var machine = started(2, demand: .max(1))
        _ = machine.receive(0, 1)
        guard case .deliver = machine.receive(1, 1) else { return XCTFail("expected a combination") }
        XCTAssertIdle(machine.afterDelivery(.none).step)
        XCTAssertIdle(machine.receive(0, 2))
        XCTAssertIdle(machine.receive(0, 5))
        XCTAssertFalse(machine.ready, "nothing is held for later demand")
        XCTAssertIdle(machine.completed(0, .finished).step)
        guard case .complete(.finished) = machine.completed(1, .finished).step else {
            return XCTFail("expected the end at once")
        }
        XCTAssertIdle(machine.requested(.max(1)).step)
    }

    func testFailureCancelsTheOthersAndCompletesAtOnce() {
        var machine = started(3, demand: .unlimited)
        let outcome = machine.completed(1, .failure(TestError()))
        XCTAssertEqual(outcome.cancel?.count, 2)
        guard case .complete(.failure) = outcome.step else { return XCTFail("expected the failure") }
        XCTAssertIdle(machine.receive(0, 1))
        XCTAssertTrue(machine.cancel().cancel.isEmpty)
    }

    func testDemandReturnedByTheDownstreamIsForwardedToLiveUpstreams() {
        var machine = started(2, demand: .max(1))
        _ = machine.receive(0, 1)
        _ = machine.receive(1, 1)
        let outcome = machine.afterDelivery(.max(2))
        XCTAssertEqual(outcome.request?.count, 2)
        XCTAssertEqual(outcome.demand, .max(2))
        XCTAssertEqual(machine.forwarded, .max(3))
    }

    func testSettlingEndsTheDrainersTurnOnlyWhenNoCombinationIsReady() {
        var machine = started(2, demand: .max(2))
        _ = machine.receive(0, 1)
        guard case .deliver = machine.receive(1, 1) else { return XCTFail("expected a combination") }
        XCTAssertIdle(machine.receive(0, 2))
        XCTAssertFalse(machine.settle(.none), "a combination is queued for the drainer")
        guard case .deliver(let values) = machine.afterDelivery(.none).step else { return XCTFail("expected it") }
        XCTAssertEqual(values, [2, 1])
        XCTAssertTrue(machine.settle(.none))
        XCTAssertFalse(machine.draining)
        XCTAssertIdle(machine.receive(1, 3))
        // No demand: that combination was dropped, and demand that comes later finds none.
        XCTAssertIdle(machine.requested(.max(1)).step)
        XCTAssertEqual(machine.receive(0, 4).values, [4, 3])
        XCTAssertFalse(machine.settle(.max(1)), "demand to forward")
    }

    func testCancelWhileDrainingLeavesTheReleaseToTheDrainer() {
        var machine = started(2, demand: .unlimited)
        _ = machine.receive(0, 1)
        _ = machine.receive(1, 1)
        XCTAssertFalse(machine.cancel().release)
        guard case .release = machine.afterDelivery(.none).step else { return XCTFail("the drainer lets go") }
    }

    private func XCTAssertIdle(_ step: SeenStep<[Int]>, file: StaticString = #filePath, line: UInt = #line) {
        guard case .idle = step else { return XCTFail("expected .idle, got \(step)", file: file, line: line) }
    }
}

extension CombineLatestState where Slots == CombiningSlotArray<LatestSlot<Int?>> {
    /// Upstream `index` sent `value`, stored as its side stores it: what the caller does next.
    fileprivate mutating func receive(_ index: Int, _ value: Int) -> SeenStep<[Int]> {
        SeenOutcome { receive(index, into: $0) { $0.slots[index].put(value) } }.step
    }
}
