@testable import TetherCore
import TetherTesting
import XCTest

/// A subject's lane and the turn it relies on, driven directly: the lane opens once and stops for
/// good, a stop owes exactly one release, and a turn taken by any thread is not free.
final class SubjectLaneTests: TetherTestCase {
    func testTheLaneOpensUntilItStopsAndAStopOwesOneRelease() {
        let lane = SubjectLane()
        XCTAssertFalse(lane.isOpen, "closed until demand is unlimited")
        XCTAssertFalse(lane.owesRelease)
        lane.open()
        lane.open()
        XCTAssertTrue(lane.isOpen, "opening twice changes nothing")
        XCTAssertFalse(lane.owesRelease)
        lane.stop()
        XCTAssertFalse(lane.isOpen)
        XCTAssertTrue(lane.owesRelease, "the subscriber is owed a release")
        lane.markReleased()
        XCTAssertFalse(lane.owesRelease, "and released once")
        lane.stop()
        XCTAssertFalse(lane.owesRelease, "a second stop owes nothing more")
        lane.open()
        XCTAssertFalse(lane.isOpen, "opening after the stop opens nothing")
    }

    func testAStopBeforeTheLaneOpenedStillOwesTheRelease() {
        let lane = SubjectLane()
        lane.stop()
        XCTAssertTrue(lane.owesRelease, "the subscription keeps its subscriber from the start")
        lane.open()
        XCTAssertFalse(lane.isOpen)
    }

    func testATurnIsFreeOnlyWhenNoThreadHoldsIt() {
        let holder = TurnHolder()
        var ran: [String] = []
        XCTAssertTrue(holder.turn.ifFree { ran.append("free") })
        XCTAssertTrue(
            holder.turn.run {
                XCTAssertFalse(holder.turn.ifFree { ran.append("held by this thread") })
                ran.append("turn")
            })
        let inside = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = holder.turn.run {
                inside.signal()
                proceed.wait()
            }
            done.signal()
        }.start()
        inside.wait()
        XCTAssertFalse(holder.turn.ifFree { ran.append("held by another thread") })
        proceed.signal()
        done.wait()
        XCTAssertTrue(holder.turn.ifFree { ran.append("free again") })
        XCTAssertEqual(ran, ["free", "turn", "free again"])
    }
}

/// A turn shared with another thread.
private final class TurnHolder: Sendable {
    let turn = DownstreamTurn()
}
