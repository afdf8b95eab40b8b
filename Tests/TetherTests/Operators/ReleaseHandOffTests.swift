import Synchronization
@testable import TetherCore
import TetherTesting
import XCTest

/// The gate that decides who releases an operator's serial-path state, on its own: serially,
/// then with a downstream `cancel` racing the serial path's deliveries.
final class ReleaseHandOffTests: TetherTestCase {
    func testAStopWithNoDeliveryInFlightIsReleasedByTheStopper() {
        let gate = ReleaseHandOff()
        gate.open()
        XCTAssertFalse(gate.leave(), "nothing stopped during the hand-over")
        XCTAssertTrue(gate.enter("Test"))
        XCTAssertFalse(gate.leave())
        XCTAssertTrue(gate.stopFromOutside(), "no delivery in flight: the stopper releases")
        XCTAssertFalse(gate.enter("Test"), "the serial path must leave the released state alone")
    }

    func testAStopDuringADeliveryIsReleasedByTheDelivery() {
        let gate = ReleaseHandOff()
        gate.open()
        XCTAssertFalse(gate.stopFromOutside(), "a stop inside the hand-over leaves the release to it")
        XCTAssertTrue(gate.leave(), "the hand-over sees the stop as it leaves, and releases")

        let delivering = ReleaseHandOff()
        delivering.open()
        XCTAssertFalse(delivering.leave())
        XCTAssertTrue(delivering.enter("Test"))
        XCTAssertFalse(delivering.stopFromOutside())
        XCTAssertTrue(delivering.leave())
    }

    func testAValueBeforeTheSubscriptionCanBeIgnoredWithoutTakingTheState() {
        let gate = ReleaseHandOff()
        XCTAssertFalse(gate.enterIfSubscribed(), "no subscription yet")
        gate.open()
        XCTAssertFalse(gate.leave())
        // Had the ignored value left `delivering` set, this stop would wait for a release that
        // never comes.
        XCTAssertTrue(gate.stopFromOutside())
    }

    func testAValueBeforeTheSubscriptionCanBeDeliveredByTheSerialPath() {
        let gate = ReleaseHandOff()
        XCTAssertTrue(gate.enterEvenBeforeSubscription())
        XCTAssertFalse(gate.stopFromOutside(), "the early delivery holds the state")
        XCTAssertTrue(gate.leave())
    }

    func testAStopFromTheSerialPathEndsEveryLaterDelivery() {
        let gate = ReleaseHandOff()
        gate.open()
        XCTAssertFalse(gate.leave())
        XCTAssertTrue(gate.enter("Test"))
        gate.stopFromSerialPath()
        XCTAssertTrue(gate.leave(), "the serial path stopped: it releases")
        XCTAssertFalse(gate.enter("Test"))
    }

    func testAStopDuringANestedDeliveryIsReleasedByTheOutermostOne() {
        let gate = ReleaseHandOff()
        gate.open()
        XCTAssertFalse(gate.leave())
        XCTAssertTrue(gate.enter("Test"))
        XCTAssertTrue(gate.enter("Test"), "a reentrant delivery")
        XCTAssertFalse(gate.stopFromOutside(), "deliveries in flight: the release is theirs")
        XCTAssertFalse(gate.enter("Test"), "stopped: a third delivery leaves the state alone")
        XCTAssertFalse(gate.leave(), "the outer delivery still runs with the state")
        XCTAssertTrue(gate.leave(), "the outermost delivery releases")
        XCTAssertFalse(gate.enterEvenBeforeSubscription())
    }

    func testAStopFromOutsideAfterANestedDeliveryLeftWaitsForTheOuterOne() {
        let gate = ReleaseHandOff()
        XCTAssertTrue(gate.enterEvenBeforeSubscription())
        XCTAssertTrue(gate.enterEvenBeforeSubscription())
        XCTAssertFalse(gate.leave())
        XCTAssertFalse(gate.stopFromOutside(), "the outer delivery still holds the state")
        XCTAssertTrue(gate.leave())
    }

    /// A cancel racing a run of deliveries: exactly one side releases, and no delivery begins
    /// after the release.
    func testACancelRacingDeliveriesIsReleasedExactlyOnce() {
        final class Round: Sendable {
            let gate = ReleaseHandOff()
            let releases = Atomic<Int>(0)
            let deliveredAfterRelease = Atomic<Bool>(false)
            let released = Atomic<Bool>(false)

            func release() {
                releases.add(1, ordering: .relaxed)
                released.store(true, ordering: .sequentiallyConsistent)
            }
        }
        Race.run(
            rounds: 5_000,
            setup: {
                let round = Round()
                round.gate.open()
                if round.gate.leave() { round.release() }
                return round
            },
            { round in
                for _ in 0..<20 {
                    guard round.gate.enter("Test") else { return }
                    if round.released.load(ordering: .sequentiallyConsistent) {
                        round.deliveredAfterRelease.store(true, ordering: .relaxed)
                    }
                    if round.gate.leave() { return round.release() }
                }
            },
            { round in
                if round.gate.stopFromOutside() { round.release() }
            },
            check: { round in
                XCTAssertEqual(round.releases.load(ordering: .relaxed), 1)
                XCTAssertFalse(round.deliveredAfterRelease.load(ordering: .relaxed))
            })
    }
}
