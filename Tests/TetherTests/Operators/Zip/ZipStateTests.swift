@testable import TetherCore
import TetherTesting
import XCTest

/// The zip state machine on its own, without threads, over `Int` upstreams.
final class ZipStateTests: TetherTestCase {
    private typealias Machine = ZipState<CombiningSlotArray<ZipSlot<Int?>>>

    private func started(_ upstreams: Int, demand: Subscribers.Demand) -> (Machine, [RecordingSubscription]) {
        var machine = Machine(upstreams: upstreams)
        if demand > 0 { _ = machine.requested(demand) }
        XCTAssertIdle(machine.afterDelivery(.none).step)
        let subscriptions = (0..<upstreams).map { _ in RecordingSubscription() }
        for (index, subscription) in subscriptions.enumerated() {
            XCTAssertEqual(machine.attach(index, subscription), demand)
        }
        return (machine, subscriptions)
    }

    func testPairsTheOldestValueOfEachUpstream() {
        var (machine, _) = started(2, demand: .unlimited)
        XCTAssertIdle(machine.receive(0, 1).step)
        XCTAssertIdle(machine.receive(0, 2).step)
        guard case .deliver(let first) = machine.receive(1, 10).step else { return XCTFail("expected a tuple") }
        XCTAssertEqual(first, [1, 10])
        XCTAssertIdle(machine.afterDelivery(.none).step)
        guard case .deliver(let second) = machine.receive(1, 20).step else { return XCTFail("expected a tuple") }
        XCTAssertEqual(second, [2, 20])
    }

    func testDeliversATupleBeyondDemandAsCombineDoes() {
        var (machine, _) = started(2, demand: .none)
        _ = machine.receive(0, 1)
        guard case .deliver(let tuple) = machine.receive(1, 2).step else { return XCTFail("expected a tuple") }
        XCTAssertEqual(tuple, [1, 2])
        let outcome = machine.requested(.max(1))
        XCTAssertEqual(outcome.request?.count, 2)
        XCTAssertEqual(outcome.skip, 1, "the sender is owed the demand, not asked")
        XCTAssertIdle(outcome.step)
        let end = machine.afterDelivery(.max(2))
        XCTAssertEqual(end.skip, 1)
        XCTAssertEqual(end.demand, .max(2))
        XCTAssertEqual(end.returned, .max(3), "what was asked for during the delivery goes back to the sender")
        XCTAssertNil(machine.sender)
        XCTAssertEqual(machine.owed, .none)
        XCTAssertEqual(machine.requested(.max(1)).skip, -1, "outside a delivery every upstream is asked")
    }

    func testTheTupleThatEmptiesAFinishedUpstreamIsFollowedByTheCompletion() {
        var (machine, subscriptions) = started(3, demand: .unlimited)
        _ = machine.receive(0, 1)
        _ = machine.receive(1, 1)
        XCTAssertIdle(machine.completed(0, .finished).step)
        let outcome = machine.receive(2, 1)
        guard case .deliver = outcome.step else { return XCTFail("expected the last tuple") }
        XCTAssertEqual(
            outcome.cancel?.map { ObjectIdentifier($0 as AnyObject) },
            [ObjectIdentifier(subscriptions[1]), ObjectIdentifier(subscriptions[2])])
        guard case .complete(.finished) = machine.afterDelivery(.max(1)).step else {
            return XCTFail("expected the end")
        }
    }

    func testFinishedWithAnEmptyQueueEndsAtOnce() {
        var (machine, _) = started(2, demand: .unlimited)
        _ = machine.receive(1, 1)
        let outcome = machine.completed(0, .finished)
        XCTAssertEqual(outcome.cancel?.count, 1)
        guard case .complete(.finished) = outcome.step else { return XCTFail("expected the end") }
        XCTAssertIdle(machine.receive(1, 2).step)
    }

    func testFailureWhileDrainingIsHandedToTheDrainer() {
        var (machine, _) = started(2, demand: .unlimited)
        _ = machine.receive(0, 1)
        guard case .deliver = machine.receive(1, 1).step else { return XCTFail("expected a tuple") }
        let outcome = machine.completed(1, .failure(TestError()))
        XCTAssertIdle(outcome.step)
        // Both: as in Combine, the failing upstream is cancelled too.
        XCTAssertEqual(outcome.cancel?.count, 2)
        guard case .complete(.failure) = machine.afterDelivery(.none).step else {
            return XCTFail("expected the failure")
        }
    }

    func testSettlingEndsTheDrainersTurnOnlyWhenNoTupleIsReady() {
        var (machine, _) = started(2, demand: .unlimited)
        _ = machine.receive(0, 1)
        _ = machine.receive(0, 2)
        guard case .deliver = machine.receive(1, 10).step else { return XCTFail("expected a tuple") }
        XCTAssertIdle(machine.receive(1, 20).step)  // the drainer pairs it
        XCTAssertFalse(machine.settle(.none), "a tuple is ready")
        XCTAssertTrue(machine.draining)
        guard case .deliver(let second) = machine.afterDelivery(.none).step else { return XCTFail("expected a tuple") }
        XCTAssertEqual(second, [2, 20])
        XCTAssertTrue(machine.settle(.none))
        XCTAssertFalse(machine.draining)
        _ = machine.receive(0, 3)
        guard case .deliver(let third) = machine.receive(1, 30).step else { return XCTFail("the next value delivers") }
        XCTAssertEqual(third, [3, 30])
    }

    func testSettlingLeavesDemandAndTheCompletionToTheDrainer() {
        var (machine, subscriptions) = started(2, demand: .max(1))
        _ = machine.receive(0, 1)
        guard case .deliver = machine.receive(1, 1).step else { return XCTFail("expected a tuple") }
        XCTAssertFalse(machine.settle(.max(1)), "demand to forward")
        let outcome = machine.afterDelivery(.max(1))
        XCTAssertEqual(
            outcome.request?.map { ObjectIdentifier($0 as AnyObject) }, subscriptions.map { ObjectIdentifier($0) })
        XCTAssertIdle(outcome.step)
        _ = machine.receive(0, 2)
        guard case .deliver = machine.receive(1, 2).step else { return XCTFail("expected a tuple") }
        XCTAssertIdle(machine.completed(0, .failure(TestError())).step)
        XCTAssertFalse(machine.settle(.none), "the failure is due")
        guard case .complete(.failure) = machine.afterDelivery(.none).step else {
            return XCTFail("expected the failure")
        }
    }

    func testCancelReleasesOnceAndRefusesLaterSubscriptions() {
        var machine = Machine(upstreams: 2)
        _ = machine.afterDelivery(.none)
        XCTAssertEqual(machine.attach(0, RecordingSubscription()), Subscribers.Demand.none)
        let (cancel, release) = machine.cancel()
        XCTAssertEqual(cancel.count, 1)
        XCTAssertTrue(release)
        XCTAssertNil(machine.attach(1, RecordingSubscription()))
        XCTAssertFalse(machine.cancel().release)
    }

    private func XCTAssertIdle(_ step: SeenStep<[Int]>, file: StaticString = #filePath, line: UInt = #line) {
        guard case .idle = step else { return XCTFail("expected .idle, got \(step)", file: file, line: line) }
    }
}

extension ZipState where Slots == CombiningSlotArray<ZipSlot<Int?>> {
    /// Upstream `index` sent `value`, stored as its side stores it.
    fileprivate mutating func receive(_ index: Int, _ value: Int) -> SeenOutcome<[Int]> {
        SeenOutcome { receive(index, into: $0) { $0.slots[index].put(value) } }
    }
}
