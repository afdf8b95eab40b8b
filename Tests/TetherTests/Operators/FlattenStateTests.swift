@testable import TetherCore
import TetherTesting
import XCTest

/// Whether a subscription the machine handed back is the given recording one.
private func isSame(_ subscription: (any Subscription)?, _ expected: RecordingSubscription) -> Bool {
    (subscription as? RecordingSubscription) === expected
}

/// Whether `subscriptions` are exactly `expected`, in order.
private func areSame(_ subscriptions: [any Subscription], _ expected: [RecordingSubscription]) -> Bool {
    subscriptions.count == expected.count && zip(subscriptions, expected).allSatisfy { isSame($0, $1) }
}

/// The flattening state machine, driven directly: no threads, no publishers.
final class FlattenStateTests: TetherTestCase {
    typealias Machine = FlattenState<Int, TestError>

    /// A machine whose downstream has its subscription and whose upstream is subscribed.
    private func started(_ maxPublishers: Subscribers.Demand, upstream: RecordingSubscription) -> Machine {
        var machine = Machine(maxPublishers: maxPublishers)
        XCTAssertTrue(machine.settle(.none))
        XCTAssertEqual(machine.subscribed(upstream), maxPublishers)
        return machine
    }

    /// Reserves `count` inners and hands each a subscription, in order.
    private func subscribeInners(_ count: Int, _ machine: inout Machine) -> [(Int, RecordingSubscription)] {
        (0..<count).map { _ in
            let index = machine.reserve()!
            let subscription = RecordingSubscription()
            XCTAssertNotNil(machine.innerSubscribed(index, subscription))
            return (index, subscription)
        }
    }

    func testTheUpstreamIsAskedForMaxPublishersEvenNoneAndASecondSubscriptionIsRefused() {
        var machine = Machine(maxPublishers: .max(3))
        XCTAssertTrue(machine.delivering, "the token is held while the downstream takes its subscription")
        XCTAssertTrue(machine.settle(.none))
        XCTAssertEqual(machine.subscribed(RecordingSubscription()), .max(3))
        XCTAssertNil(machine.subscribed(RecordingSubscription()))

        var none = Machine(maxPublishers: .none)
        XCTAssertTrue(none.settle(.none))
        XCTAssertEqual(none.subscribed(RecordingSubscription()), Subscribers.Demand.none)
    }

    func testACancelBeforeTheUpstreamsSubscriptionHasItCancelledWhenItArrives() {
        var machine = Machine(maxPublishers: .unlimited)
        let cancel = machine.cancel()
        XCTAssertTrue(cancel.cancels.isEmpty)
        guard case .idle = cancel.drain else { return XCTFail("released under the handoff") }
        guard case .release = machine.delivered(.none).drain else { return XCTFail("not released") }
        XCTAssertNil(machine.subscribed(RecordingSubscription()))
    }

    func testPublishersAndCompletionsBeforeTheUpstreamsSubscriptionAreTaken() {
        var machine = Machine(maxPublishers: .max(1))
        XCTAssertTrue(machine.settle(.none))
        let index = machine.reserve()!
        XCTAssertEqual(machine.innerSubscribed(index, RecordingSubscription()), .max(1))
        guard case .idle = machine.upstreamFinished().drain else { return XCTFail("finished with an inner left") }
        XCTAssertNil(machine.subscribed(RecordingSubscription()), "a subscription after the finish is refused")
        let last = machine.innerFinished(index)
        XCTAssertNil(last.request)
        guard case .complete(.finished) = last.drain else { return XCTFail("not finished") }

        var idle = Machine(maxPublishers: .unlimited)
        XCTAssertTrue(idle.settle(.none))
        XCTAssertEqual(idle.upstreamFinishedQuietly(), true)
        XCTAssertTrue(idle.receivingCompletion)
    }

    func testAValueWithDemandTakesTheTokenAndOneArrivingMeanwhileIsTakenWithItsDemand() {
        var machine = started(.unlimited, upstream: RecordingSubscription())
        _ = machine.request(.max(2))
        let inners = subscribeInners(2, &machine)
        let (first, second) = (inners[0].0, inners[1].0)

        guard case .deliver(.max(1)) = machine.innerValue(first, 10) else { return XCTFail("not delivered") }
        guard case .queued(.max(1)) = machine.innerValue(second, 20) else { return XCTFail("not queued") }
        XCTAssertEqual(machine.demand, .none)
        XCTAssertEqual(machine.paid, 1)
        guard case .buffered = machine.innerValue(second, 30) else { return XCTFail("no demand left, yet taken") }

        // The paid value goes whatever the demand, asking nothing of its inner again.
        let next = machine.delivered(.none)
        guard case .deliver(20) = next.drain else { return XCTFail("expected 20, got \(next.drain)") }
        XCTAssertNil(next.request)
        guard case .idle = machine.delivered(.none).drain else { return XCTFail("token not freed") }
        XCTAssertFalse(machine.delivering)
        XCTAssertEqual(machine.buffer.map(\.value), [30])
        XCTAssertEqual(machine.paid, 0)
    }

    func testAValueArrivingBehindOneWithoutDemandWaitsToo() {
        var machine = started(.unlimited, upstream: RecordingSubscription())
        let index = machine.reserve()!
        let subscription = RecordingSubscription()
        _ = machine.innerSubscribed(index, subscription)
        guard case .buffered = machine.innerValue(index, 1) else { return XCTFail("not buffered") }

        let effects = machine.request(.max(2))
        guard case .deliver(1) = effects.drain else { return XCTFail("expected 1, got \(effects.drain)") }
        XCTAssertTrue(isSame(effects.request?.subscription, subscription))
        XCTAssertEqual(effects.request?.demand, .max(1))
        guard case .queued(.max(1)) = machine.innerValue(index, 2) else { return XCTFail("not queued") }
        guard case .deliver(2) = machine.delivered(.none).drain else { return XCTFail("not delivered") }
    }

    func testAnInnerThatFinishedStillHasItsValuesDeliveredAndEachOfItsFinishesAsksForAReplacement() {
        let upstream = RecordingSubscription()
        var machine = started(.max(1), upstream: upstream)
        _ = machine.request(.max(5))
        let index = machine.reserve()!
        _ = machine.innerSubscribed(index, RecordingSubscription())
        for _ in 0..<2 {
            let finished = machine.innerFinished(index)
            XCTAssertTrue(isSame(finished.request?.subscription, upstream))
            XCTAssertEqual(finished.request?.demand, .max(1))
        }
        guard case .deliver(.none) = machine.innerValue(index, 7) else { return XCTFail("a late value dropped") }
        XCTAssertTrue(machine.settle(.none))
        XCTAssertEqual(machine.demand, .max(4))
    }

    func testFinishingWaitsForEveryInnerAndTheBuffer() {
        let upstream = RecordingSubscription()
        var machine = started(.max(1), upstream: upstream)
        let index = machine.reserve()!
        _ = machine.innerSubscribed(index, RecordingSubscription())
        _ = machine.innerValue(index, 5)
        guard case .idle = machine.upstreamFinished().drain else { return XCTFail("finished early") }
        let innerDone = machine.innerFinished(index)
        XCTAssertNil(innerDone.request, "the upstream has finished: nothing to ask of it")
        guard case .idle = innerDone.drain else { return XCTFail("finished before the buffer drained") }

        guard case .deliver(5) = machine.request(.max(1)).drain else { return XCTFail("buffer not drained") }
        guard case .complete(.finished) = machine.delivered(.none).drain else { return XCTFail("not finished") }
        XCTAssertTrue(machine.terminated)
        XCTAssertTrue(machine.receivingCompletion)
        guard case .release = machine.delivered(.none).drain else { return XCTFail("not released") }
        XCTAssertFalse(machine.receivingCompletion)
    }

    func testAnInnerFailureCancelsTheOtherInnersButNotTheUpstreamAndWaitsForTheTokenHolder() {
        let upstream = RecordingSubscription()
        var machine = started(.unlimited, upstream: upstream)
        _ = machine.request(.max(2))
        let inners = subscribeInners(3, &machine)
        let (first, second, third) = (inners[0].0, inners[1].0, inners[2].0)
        guard case .deliver = machine.innerValue(first, 1) else { return XCTFail("not delivered") }
        guard case .queued = machine.innerValue(second, 2) else { return XCTFail("not queued") }
        guard case .buffered = machine.innerValue(third, 3) else { return XCTFail("not buffered") }

        let failure = machine.innerFailed(first, TestError(id: 3))
        XCTAssertTrue(areSame(failure.cancels, [inners[1].1, inners[2].1]))
        XCTAssertEqual(machine.upstream, .terminal)
        XCTAssertTrue(machine.upstreamSubscription is UnattachedSubscription, "let go of, not cancelled")
        guard case .idle = failure.drain else { return XCTFail("completed while the token was held") }
        guard case .drop = machine.innerValue(second, 4) else { return XCTFail("value after failure") }
        // The value taken before the failure goes first; the one waiting for demand is dropped.
        guard case .deliver(2) = machine.delivered(.none).drain else { return XCTFail("paid value dropped") }
        guard case .complete(.failure(TestError(id: 3))) = machine.delivered(.max(4)).drain else {
            return XCTFail("failure not handed to the token holder")
        }
        XCTAssertEqual(machine.upstreamFinished().cancels.count, 0)
    }

    func testAValueSentWhileTheCompletionIsReceivedFollowsItWhileDemandLasts() {
        var machine = started(.unlimited, upstream: RecordingSubscription())
        _ = machine.request(.max(1))
        let index = machine.reserve()!
        _ = machine.innerSubscribed(index, RecordingSubscription())
        guard case .complete(.failure(TestError(id: 1))) = machine.innerFailed(index, TestError(id: 1)).drain else {
            return XCTFail("not failed")
        }
        guard case .queued(.none) = machine.innerValue(index, 1) else { return XCTFail("not queued") }
        guard case .drop = machine.innerValue(index, 2) else { return XCTFail("taken without demand") }
        guard case .deliver(1) = machine.delivered(.none).drain else { return XCTFail("not delivered") }
        guard case .release = machine.delivered(.max(3)).drain else { return XCTFail("not released") }
        guard case .drop = machine.innerValue(index, 3) else { return XCTFail("taken after the release") }
    }

    func testAnUpstreamFailureCancelsTheInnersFirstAndThenFails() {
        var machine = started(.unlimited, upstream: RecordingSubscription())
        let index = machine.reserve()!
        let inner = RecordingSubscription()
        _ = machine.innerSubscribed(index, inner)
        _ = machine.innerValue(index, 1)

        XCTAssertTrue(areSame(machine.upstreamFailed(TestError(id: 2)), [inner]))
        XCTAssertEqual(machine.upstream, .failing)
        XCTAssertTrue(machine.buffer.isEmpty, "a value waiting for demand is dropped")
        guard case .complete(.failure(TestError(id: 2))) = machine.innersCancelled().drain else {
            return XCTFail("not failed")
        }
        XCTAssertEqual(machine.upstream, .terminal)
        XCTAssertTrue(machine.upstreamFailed(TestError(id: 2)).isEmpty)
    }

    func testAnUpstreamFailureDuringADeliveryIsLeftToTheTokenHolder() {
        var machine = started(.unlimited, upstream: RecordingSubscription())
        _ = machine.request(.max(1))
        guard case .deliver = machine.immediate(1) else { return XCTFail("not delivered") }
        XCTAssertTrue(machine.upstreamFailed(TestError(id: 5)).isEmpty)
        guard case .idle = machine.innersCancelled().drain else { return XCTFail("completed over the holder") }
        guard case .complete(.failure(TestError(id: 5))) = machine.delivered(.none).drain else {
            return XCTFail("not handed over")
        }
    }

    func testCancelCancelsEveryInnerAndThenTheUpstreamAndLeavesTheReleaseToTheTokenHolder() {
        let upstream = RecordingSubscription()
        var machine = started(.unlimited, upstream: upstream)
        _ = machine.request(.max(1))
        let first = machine.reserve()!
        let second = machine.reserve()!
        let firstSubscription = RecordingSubscription()
        let secondSubscription = RecordingSubscription()
        _ = machine.innerSubscribed(second, secondSubscription)
        _ = machine.innerSubscribed(first, firstSubscription)
        guard case .deliver = machine.innerValue(first, 1) else { return XCTFail("not delivered") }

        let cancel = machine.cancel()
        XCTAssertTrue(areSame(cancel.cancels, [firstSubscription, secondSubscription, upstream]))
        guard case .idle = cancel.drain else { return XCTFail("released under the token holder") }
        guard case .release = machine.delivered(.max(1)).drain else { return XCTFail("not released") }
        XCTAssertEqual(machine.cancel().cancels.count, 0)
        XCTAssertNil(machine.innerSubscribed(first, RecordingSubscription()))
    }

    func testUnlimitedDemandAsksEveryLimitedInnerForUnlimitedAfterTheWaitingValues() {
        var machine = started(.unlimited, upstream: RecordingSubscription())
        let inners = subscribeInners(2, &machine)
        let pending = machine.reserve()!
        _ = machine.innerValue(inners[1].0, 1)

        let effects = machine.request(.unlimited)
        XCTAssertTrue(areSame(effects.unlimited, inners.map(\.1)))
        XCTAssertNil(effects.request, "the waiting value's inner is asked for unlimited instead")
        guard case .deliver(1) = effects.drain else { return XCTFail("waiting value not delivered") }
        XCTAssertEqual(machine.innerSubscribed(pending, RecordingSubscription()), .unlimited)
        XCTAssertTrue(machine.request(.unlimited).unlimited.isEmpty, "asked once")
    }

    func testSettlingQuietlyFreesTheTokenOnlyWhenNothingElseIsDue() {
        var machine = started(.unlimited, upstream: RecordingSubscription())
        _ = machine.request(.max(1))
        let index = machine.reserve()!
        XCTAssertEqual(machine.innerSubscribed(index, RecordingSubscription()), .max(1))
        guard case .deliver = machine.innerValue(index, 1) else { return XCTFail("not delivered") }
        XCTAssertTrue(machine.settle(.max(2)))
        XCTAssertEqual(machine.demand, .max(2))
        XCTAssertFalse(machine.delivering)

        // A value waiting in the buffer is for delivered(_:) to hand over.
        guard case .deliver = machine.innerValue(index, 2) else { return XCTFail("not delivered") }
        guard case .queued = machine.innerValue(index, 3) else { return XCTFail("not queued") }
        XCTAssertFalse(machine.settle(.none))
        XCTAssertTrue(machine.delivering)
        guard case .deliver(3) = machine.delivered(.none).drain else { return XCTFail("buffer not drained") }
        XCTAssertTrue(machine.settle(.none))

        // An inner goes quietly while the upstream is live; after its finish the last one ends it.
        guard case .settled = machine.finishInnerQuietly(index) else { return XCTFail("not settled") }
        XCTAssertEqual(machine.activeInners, 0)
        let last = machine.reserve()!
        _ = machine.upstreamFinished()
        XCTAssertFalse(machine.finishInnerQuietly(last).isSettled)
        XCTAssertEqual(machine.activeInners, 1)
        guard case .complete(.finished) = machine.innerFinished(last).drain else { return XCTFail("not finished") }
    }

    func testABoundedFlatMapAsksTheUpstreamForAReplacementWhenAnInnerGoesQuietly() {
        let upstream = RecordingSubscription()
        var machine = started(.max(2), upstream: upstream)
        let index = machine.reserve()!
        for _ in 0..<2 {
            guard case .settledAsking(let asked, let demand) = machine.finishInnerQuietly(index) else {
                return XCTFail("no ask")
            }
            XCTAssertTrue(isSame(asked, upstream))
            XCTAssertEqual(demand, .max(1))
        }
        XCTAssertEqual(machine.activeInners, 0)

        _ = machine.request(.max(1))
        guard case .deliver = machine.immediate(7) else { return XCTFail("not delivered") }
        guard case .settledAsking = machine.settleImmediate(.none) else { return XCTFail("no ask") }
        XCTAssertFalse(machine.delivering)
        XCTAssertTrue(machine.requestQuietly(.max(1)))
        XCTAssertEqual(machine.demand, .max(1))
    }

    func testTheUpstreamFinishingQuietlyEndsTheStreamOnlyWhenNothingIsLeft() {
        var idle = started(.unlimited, upstream: RecordingSubscription())
        XCTAssertEqual(idle.upstreamFinishedQuietly(), true)
        XCTAssertTrue(idle.delivering)
        XCTAssertTrue(idle.terminated)
        XCTAssertNil(idle.upstreamFinishedQuietly(), "a second completion goes the full way")
        XCTAssertEqual(idle.upstreamFinished().cancels.count, 0)

        var running = started(.unlimited, upstream: RecordingSubscription())
        let index = running.reserve()!
        XCTAssertEqual(running.upstreamFinishedQuietly(), false)
        XCTAssertFalse(running.terminated)
        guard case .complete(.finished) = running.innerFinished(index).drain else { return XCTFail("not finished") }

        // The token is held: the holder must deliver the completion, so the full path decides.
        var holding = started(.unlimited, upstream: RecordingSubscription())
        _ = holding.request(.max(1))
        guard case .deliver = holding.immediate(1) else { return XCTFail("not delivered") }
        XCTAssertNil(holding.upstreamFinishedQuietly())
        XCTAssertFalse(holding.terminated)
        if case .idle = holding.upstreamFinished().drain {} else { XCTFail("completed over the holder") }
        guard case .complete(.finished) = holding.delivered(.none).drain else { return XCTFail("not handed over") }
    }
}
