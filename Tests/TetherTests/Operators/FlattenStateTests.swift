@testable import TetherCore
import TetherTesting
import XCTest

/// The flattening state machine, driven directly: no threads, no publishers.
/// Whether a subscription the machine handed back is the given recording one.
private func isSame(_ subscription: (any Subscription)?, _ expected: RecordingSubscription) -> Bool {
    (subscription as? RecordingSubscription) === expected
}

final class FlattenStateTests: TetherTestCase {
    typealias Machine = FlattenState<Int, TestError>

    private func started(_ policy: FlattenPolicy, upstream: RecordingSubscription) -> Machine {
        var machine = Machine(policy: policy)
        XCTAssertTrue(machine.subscribed(upstream))
        let effects = machine.started()
        XCTAssertTrue(isSame(effects.request?.subscription, upstream))
        if case .idle = effects.drain {} else { XCTFail("expected idle, got \(effects.drain)") }
        return machine
    }

    func testStartAsksUpstreamForMaxPublishersAndASecondSubscriptionIsRefused() {
        let upstream = RecordingSubscription()
        var machine = Machine(policy: .merge(maxPublishers: .max(3)))
        XCTAssertTrue(machine.subscribed(upstream))
        XCTAssertFalse(machine.subscribed(RecordingSubscription()))
        XCTAssertEqual(machine.started().request?.demand, .max(3))

        var switching = Machine(policy: .switchToLatest)
        XCTAssertTrue(switching.subscribed(upstream))
        XCTAssertEqual(switching.started().request?.demand, .unlimited)
    }

    func testAValueWithDemandTakesTheTokenAndOneArrivingMeanwhileIsBuffered() {
        var machine = started(.merge(maxPublishers: .unlimited), upstream: RecordingSubscription())
        _ = machine.request(.max(2))
        let first = machine.reserve().index!
        let second = machine.reserve().index!
        XCTAssertEqual(machine.innerSubscribed(first, RecordingSubscription()), .max(1))
        let secondSubscription = RecordingSubscription()
        XCTAssertEqual(machine.innerSubscribed(second, secondSubscription), .max(1))

        guard case .deliver(let ask) = machine.innerValue(first, 10) else { return XCTFail("not delivered") }
        XCTAssertEqual(ask, .max(1))
        guard case .buffered = machine.innerValue(second, 20) else { return XCTFail("not buffered") }

        let next = machine.delivered(.none)
        guard case .deliver(20) = next.drain else { return XCTFail("expected 20, got \(next.drain)") }
        XCTAssertTrue(isSame(next.request?.subscription, secondSubscription))
        XCTAssertEqual(next.request?.demand, .max(1))
        guard case .idle = machine.delivered(.none).drain else { return XCTFail("token not freed") }
        XCTAssertFalse(machine.delivering)
        XCTAssertEqual(machine.demand, .none)
    }

    func testAValueWithoutDemandWaitsForTheNextRequest() {
        var machine = started(.merge(maxPublishers: .unlimited), upstream: RecordingSubscription())
        let index = machine.reserve().index!
        _ = machine.innerSubscribed(index, RecordingSubscription())
        guard case .buffered = machine.innerValue(index, 1) else { return XCTFail("not buffered") }

        let effects = machine.request(.max(1))
        guard case .deliver(1) = effects.drain else { return XCTFail("expected 1, got \(effects.drain)") }
        XCTAssertTrue(machine.delivering)
    }

    func testFinishingWaitsForEveryInnerAndTheBuffer() {
        let upstream = RecordingSubscription()
        var machine = started(.merge(maxPublishers: .max(1)), upstream: upstream)
        let index = machine.reserve().index!
        _ = machine.innerSubscribed(index, RecordingSubscription())
        _ = machine.innerValue(index, 5)
        guard case .idle = machine.upstreamFinished().drain else { return XCTFail("finished early") }
        let innerDone = machine.innerFinished(index)
        XCTAssertNil(innerDone.request, "the upstream has finished: nothing to ask of it")
        guard case .idle = innerDone.drain else { return XCTFail("finished before the buffer drained") }

        guard case .deliver(5) = machine.request(.max(1)).drain else { return XCTFail("buffer not drained") }
        guard case .complete(.finished) = machine.delivered(.none).drain else { return XCTFail("not finished") }
        XCTAssertTrue(machine.terminated)
    }

    func testAnInnerFinishingAsksTheUpstreamForOneMore() {
        let upstream = RecordingSubscription()
        var machine = started(.merge(maxPublishers: .max(2)), upstream: upstream)
        let index = machine.reserve().index!
        let effects = machine.innerFinished(index)
        XCTAssertTrue(isSame(effects.request?.subscription, upstream))
        XCTAssertEqual(effects.request?.demand, .max(1))
    }

    func testAFailureDuringADeliveryWaitsForTheTokenHolderAndCancelsTheRest() {
        let upstream = RecordingSubscription()
        var machine = started(.merge(maxPublishers: .unlimited), upstream: upstream)
        _ = machine.request(.max(1))
        let first = machine.reserve().index!
        let second = machine.reserve().index!
        let secondSubscription = RecordingSubscription()
        _ = machine.innerSubscribed(first, RecordingSubscription())
        _ = machine.innerSubscribed(second, secondSubscription)
        guard case .deliver = machine.innerValue(first, 1) else { return XCTFail("not delivered") }

        let failure = machine.innerFailed(first, TestError(id: 3))
        XCTAssertEqual(failure.cancels.count, 2)
        XCTAssertTrue(isSame(failure.cancels[0], upstream))
        XCTAssertTrue(isSame(failure.cancels[1], secondSubscription))
        guard case .idle = failure.drain else { return XCTFail("completed while the token was held") }
        guard case .drop = machine.innerValue(second, 2) else { return XCTFail("value after failure") }
        guard case .complete(.failure(TestError(id: 3))) = machine.delivered(.max(4)).drain else {
            return XCTFail("failure not handed to the token holder")
        }
    }

    func testCancelWhileDeliveringLeavesTheReleaseToTheTokenHolder() {
        var machine = started(.merge(maxPublishers: .unlimited), upstream: RecordingSubscription())
        _ = machine.request(.max(1))
        let index = machine.reserve().index!
        _ = machine.innerSubscribed(index, RecordingSubscription())
        guard case .deliver = machine.innerValue(index, 1) else { return XCTFail("not delivered") }

        let cancel = machine.cancel()
        XCTAssertEqual(cancel.cancels.count, 2)
        guard case .idle = cancel.drain else { return XCTFail("released under the token holder") }
        guard case .release = machine.delivered(.max(1)).drain else { return XCTFail("not released") }
        XCTAssertEqual(machine.cancel().cancels.count, 0)
        XCTAssertNil(machine.innerSubscribed(index, RecordingSubscription()))
    }

    func testSwitchingCancelsThePreviousInnerDropsItsValuesAndHandsTheNewOneTheDemand() {
        var machine = started(.switchToLatest, upstream: RecordingSubscription())
        _ = machine.request(.max(3))
        let first = machine.reserve().index!
        let firstSubscription = RecordingSubscription()
        XCTAssertEqual(machine.innerSubscribed(first, firstSubscription), .max(3))
        guard case .deliver(let ask) = machine.innerValue(first, 1) else { return XCTFail("not delivered") }
        XCTAssertEqual(ask, .none)
        _ = machine.delivered(.none)

        let (second, cancels) = machine.reserve()
        XCTAssertEqual(cancels.count, 1)
        XCTAssertTrue(isSame(cancels.first, firstSubscription))
        guard case .drop = machine.innerValue(first, 2) else { return XCTFail("stale value kept") }
        let secondSubscription = RecordingSubscription()
        XCTAssertEqual(machine.innerSubscribed(second!, secondSubscription), .max(2))
        let more = machine.request(.max(4))
        XCTAssertTrue(isSame(more.request?.subscription, secondSubscription))
        XCTAssertEqual(more.request?.demand, .max(4))
    }

    func testSettlingQuietlyFreesTheTokenOnlyWhenNothingElseIsDue() {
        var machine = started(.merge(maxPublishers: .unlimited), upstream: RecordingSubscription())
        _ = machine.request(.max(1))
        let index = machine.reserve().index!
        XCTAssertEqual(machine.innerSubscribed(index, RecordingSubscription()), .max(1))
        guard case .deliver = machine.innerValue(index, 1) else { return XCTFail("not delivered") }
        XCTAssertTrue(machine.settle(.max(2)))
        XCTAssertEqual(machine.demand, .max(2))
        XCTAssertFalse(machine.delivering)

        // A value waiting in the buffer is for delivered(_:) to hand over.
        guard case .deliver = machine.innerValue(index, 2) else { return XCTFail("not delivered") }
        guard case .buffered = machine.innerValue(index, 3) else { return XCTFail("not buffered") }
        XCTAssertFalse(machine.settle(.none))
        XCTAssertTrue(machine.delivering)
        guard case .deliver(3) = machine.delivered(.none).drain else { return XCTFail("buffer not drained") }
        XCTAssertTrue(machine.settle(.none))

        // An inner goes quietly while the upstream is live; after its finish the last one ends it.
        guard case .settled = machine.finishInnerQuietly(index) else { return XCTFail("not settled") }
        XCTAssertEqual(machine.activeInners, 0)
        let last = machine.reserve().index!
        _ = machine.upstreamFinished()
        XCTAssertFalse(machine.finishInnerQuietly(last).isSettled)
        XCTAssertEqual(machine.activeInners, 1)
        guard case .complete(.finished) = machine.innerFinished(last).drain else { return XCTFail("not finished") }
    }

    func testABoundedFlatMapAsksTheUpstreamForAReplacementWhenAnInnerGoesQuietly() {
        let upstream = RecordingSubscription()
        var machine = started(.merge(maxPublishers: .max(2)), upstream: upstream)
        let index = machine.reserve().index!
        guard case .settledAsking(let asked, let demand) = machine.finishInnerQuietly(index) else {
            return XCTFail("no ask")
        }
        XCTAssertTrue(isSame(asked, upstream))
        XCTAssertEqual(demand, .max(1))
        XCTAssertEqual(machine.activeInners, 0)
        guard case .settled = machine.finishInnerQuietly(index) else { return XCTFail("stale inner asked again") }

        _ = machine.request(.max(1))
        guard case .deliver = machine.immediate(7).verdict else { return XCTFail("not delivered") }
        guard case .settledAsking = machine.settleImmediate(.none) else { return XCTFail("no ask") }
        XCTAssertFalse(machine.delivering)
        XCTAssertTrue(machine.requestQuietly(.max(1)))
        XCTAssertEqual(machine.demand, .max(1))
    }

    func testStartingQuietlyAsksWhatStartingAsksAndFreesTheToken() {
        for (policy, ask) in [
            (FlattenPolicy.merge(maxPublishers: .max(3)), Subscribers.Demand.max(3)),
            (.merge(maxPublishers: .unlimited), .unlimited),
            (.switchToLatest, .unlimited),
        ] {
            let upstream = RecordingSubscription()
            var machine = Machine(policy: policy)
            XCTAssertTrue(machine.subscribed(upstream))
            guard case .settledAsking(let asked, let demand) = machine.startQuietly() else {
                return XCTFail("\(policy): not settled")
            }
            XCTAssertTrue(isSame(asked, upstream))
            XCTAssertEqual(demand, ask)
            XCTAssertFalse(machine.delivering)
        }

        var none = Machine(policy: .merge(maxPublishers: .none))
        XCTAssertTrue(none.subscribed(RecordingSubscription()))
        guard case .settled = none.startQuietly() else { return XCTFail("asked for no publishers") }
        XCTAssertFalse(none.delivering)

        // Cancelled while the downstream took its subscription: the full transition releases.
        var cancelled = Machine(policy: .switchToLatest)
        XCTAssertTrue(cancelled.subscribed(RecordingSubscription()))
        _ = cancelled.cancel()
        XCTAssertFalse(cancelled.startQuietly().isSettled)
        XCTAssertTrue(cancelled.delivering)
        guard case .release = cancelled.started().drain else { return XCTFail("not released") }
    }

    func testTheUpstreamFinishingQuietlyEndsTheStreamOnlyWhenNothingIsLeft() {
        var idle = started(.merge(maxPublishers: .unlimited), upstream: RecordingSubscription())
        XCTAssertEqual(idle.upstreamFinishedQuietly(), true)
        XCTAssertTrue(idle.delivering)
        XCTAssertTrue(idle.terminated)
        XCTAssertNil(idle.upstreamFinishedQuietly(), "a second completion goes the full way")
        XCTAssertEqual(idle.upstreamFinished().cancels.count, 0)

        var running = started(.merge(maxPublishers: .unlimited), upstream: RecordingSubscription())
        let index = running.reserve().index!
        XCTAssertEqual(running.upstreamFinishedQuietly(), false)
        XCTAssertFalse(running.terminated)
        guard case .complete(.finished) = running.innerFinished(index).drain else { return XCTFail("not finished") }

        // The token is held: the holder must deliver the completion, so the full path decides.
        var holding = started(.merge(maxPublishers: .unlimited), upstream: RecordingSubscription())
        _ = holding.request(.max(1))
        guard case .deliver = holding.immediate(1).verdict else { return XCTFail("not delivered") }
        XCTAssertNil(holding.upstreamFinishedQuietly())
        XCTAssertFalse(holding.terminated)
        if case .idle = holding.upstreamFinished().drain {} else { XCTFail("completed over the holder") }
        guard case .complete(.finished) = holding.delivered(.none).drain else { return XCTFail("not handed over") }
    }
}
