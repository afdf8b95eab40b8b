import Synchronization
@testable import TetherCore
import TetherTesting
import XCTest

/// The hand-off that decides who releases an operator's serial-path state, on its own: serially,
/// then with a downstream `cancel` racing the serial path's deliveries.
final class ReleaseHandOffTests: TetherTestCase {
    /// A hand-off past its subscription's hand-over, which nothing stopped.
    private func subscribedHandOff(file: StaticString = #filePath, line: UInt = #line) -> ReleaseHandOff {
        let handOff = ReleaseHandOff()
        handOff.open()
        XCTAssertFalse(handOff.leave(), "nothing stopped during the hand-over", file: file, line: line)
        return handOff
    }

    func testAStopWithNoDeliveryInFlightIsReleasedByTheStopper() {
        let handOff = subscribedHandOff()
        XCTAssertTrue(handOff.enter("Test"))
        XCTAssertFalse(handOff.leave())
        XCTAssertTrue(handOff.stopFromOutside(), "no delivery in flight: the stopper releases")
        XCTAssertFalse(handOff.enter("Test"), "the serial path must leave the released state alone")
    }

    func testAStopDuringADeliveryIsReleasedByTheDelivery() {
        let handOff = ReleaseHandOff()
        handOff.open()
        XCTAssertFalse(handOff.stopFromOutside(), "a stop inside the hand-over leaves the release to it")
        XCTAssertTrue(handOff.leave(), "the hand-over sees the stop as it leaves, and releases")

        let delivering = subscribedHandOff()
        XCTAssertTrue(delivering.enter("Test"))
        XCTAssertFalse(delivering.stopFromOutside())
        XCTAssertTrue(delivering.leave())
    }

    func testAValueBeforeTheSubscriptionCanBeIgnoredWithoutTakingTheState() {
        let handOff = ReleaseHandOff()
        XCTAssertFalse(handOff.enterIfSubscribed(), "no subscription yet")
        handOff.open()
        XCTAssertFalse(handOff.leave())
        // Had the ignored value left `delivering` set, this stop would wait for a release that
        // never comes.
        XCTAssertTrue(handOff.stopFromOutside())
    }

    func testAValueBeforeTheSubscriptionCanBeDeliveredByTheSerialPath() {
        let handOff = ReleaseHandOff()
        XCTAssertTrue(handOff.enterEvenBeforeSubscription())
        XCTAssertFalse(handOff.stopFromOutside(), "the early delivery holds the state")
        XCTAssertTrue(handOff.leave())
    }

    func testAStopFromTheSerialPathEndsEveryLaterDelivery() {
        let handOff = subscribedHandOff()
        XCTAssertTrue(handOff.enter("Test"))
        handOff.stopFromSerialPath()
        XCTAssertTrue(handOff.leave(), "the serial path stopped: it releases")
        XCTAssertFalse(handOff.enter("Test"))
    }

    func testAStopDuringANestedDeliveryIsReleasedByTheOutermostOne() {
        let handOff = subscribedHandOff()
        XCTAssertTrue(handOff.enter("Test"))
        XCTAssertTrue(handOff.enter("Test"), "a reentrant delivery")
        XCTAssertFalse(handOff.stopFromOutside(), "deliveries in flight: the release is theirs")
        XCTAssertFalse(handOff.enter("Test"), "stopped: a third delivery leaves the state alone")
        XCTAssertFalse(handOff.leave(), "the outer delivery still runs with the state")
        XCTAssertTrue(handOff.leave(), "the outermost delivery releases")
        XCTAssertFalse(handOff.enterEvenBeforeSubscription())
    }

    func testAStopFromOutsideAfterANestedDeliveryLeftWaitsForTheOuterOne() {
        let handOff = ReleaseHandOff()
        XCTAssertTrue(handOff.enterEvenBeforeSubscription())
        XCTAssertTrue(handOff.enterEvenBeforeSubscription())
        XCTAssertFalse(handOff.leave())
        XCTAssertFalse(handOff.stopFromOutside(), "the outer delivery still holds the state")
        XCTAssertTrue(handOff.leave())
    }

    func testACompletionWithNoDeliveryInFlightStopsAndReleasesInOneStep() {
        let handOff = subscribedHandOff()
        XCTAssertEqual(handOff.enterToStopEvenBeforeSubscription(), true, "nothing in flight: it releases")
        XCTAssertTrue(handOff.hasStopped())
        XCTAssertFalse(handOff.stopFromOutside(), "its entry stays counted: a later cancel releases nothing")
        XCTAssertFalse(handOff.enterEvenBeforeSubscription())
        XCTAssertNil(handOff.enterToStopEvenBeforeSubscription(), "a second completion is ignored")

        let early = ReleaseHandOff()
        XCTAssertEqual(early.enterToStopEvenBeforeSubscription(), true, "before the subscription too")
        XCTAssertNil(early.enterToStopEvenBeforeSubscription())
    }

    func testACompletionBeneathADeliveryLeavesTheReleaseToIt() {
        let handOff = subscribedHandOff()
        XCTAssertTrue(handOff.enter("Test"))
        XCTAssertEqual(handOff.enterToStopEvenBeforeSubscription(), false, "a value is being delivered")
        XCTAssertFalse(handOff.stopFromOutside(), "the delivery still holds the state")
        XCTAssertTrue(handOff.leave(), "the delivery releases as it leaves, its entry the only one left")
        XCTAssertNil(handOff.enterToStopEvenBeforeSubscription())
    }

    func testACompletionAfterACancelIsIgnored() {
        let handOff = subscribedHandOff()
        XCTAssertTrue(handOff.stopFromOutside())
        XCTAssertNil(handOff.enterToStopEvenBeforeSubscription(), "the cancel released the state")
    }

    /// A cancel racing a run of deliveries: exactly one side releases, and no delivery begins
    /// after the release.
    func testACancelRacingDeliveriesIsReleasedExactlyOnce() {
        final class Round: Sendable {
            let handOff = ReleaseHandOff()
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
                round.handOff.open()
                if round.handOff.leave() { round.release() }
                return round
            },
            { round in
                for _ in 0..<20 {
                    guard round.handOff.enter("Test") else { return }
                    if round.released.load(ordering: .sequentiallyConsistent) {
                        round.deliveredAfterRelease.store(true, ordering: .relaxed)
                    }
                    if round.handOff.leave() { return round.release() }
                }
            },
            { round in
                if round.handOff.stopFromOutside() { round.release() }
            },
            check: { round in
                XCTAssertEqual(round.releases.load(ordering: .relaxed), 1)
                XCTAssertFalse(round.deliveredAfterRelease.load(ordering: .relaxed))
            })
    }
}
