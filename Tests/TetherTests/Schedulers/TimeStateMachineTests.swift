@testable import TetherCore
import TetherTesting
import XCTest

/// The time operators' state machines, driven directly: no threads, no schedulers.
final class TimeStateMachineTests: TetherTestCase {
    func testDebounceStateOnlyTheLatestValuesTimerDeliversAndOnlyOnce() {
        var state = DebounceState<Int>()
        XCTAssertTrue(state.subscribe(RecordingSubscription()))
        state.request(.max(1))
        let first = state.receive(1).generation
        let second = state.receive(2).generation
        XCTAssertEqual([first, second], [1, 2], "timers are numbered from 1")
        guard case .ignore = state.fire(first) else { return XCTFail("an overtaken timer does nothing") }
        guard case .due(2?, _) = state.fire(second) else { return XCTFail("the latest value goes out") }
        guard case .ignore = state.fire(second) else { return XCTFail("a repeating timer delivers once") }
        let third = state.receive(3).generation
        guard case .due(nil, _) = state.fire(third) else { return XCTFail("no demand left: the value is dropped") }
        XCTAssertEqual(state.current, 3, "Combine keeps the latest value")
    }

    func testDebounceStateIgnoresEventsBeforeTheSubscriptionAndAfterTheEnd() {
        var state = DebounceState<Int>()
        XCTAssertEqual(state.receive(1).generation, 0, "ignored: no timer starts")
        XCTAssertNil(state.cancel(), "a cancel before the subscription does nothing")
        XCTAssertTrue(state.subscribe(RecordingSubscription()))
        state.request(.unlimited)
        let generation = state.receive(1).generation
        XCTAssertTrue(state.complete() != nil)
        XCTAssertTrue(state.complete() == nil)
        guard case .ignore = state.fire(generation) else { return XCTFail("the end silences the timer") }
        XCTAssertEqual(state.receive(2).generation, 0)
    }

    func testThrottleStateSchedulesTheFirstValueAtOnceAndTheNextAfterTheInterval() {
        var state = ThrottleState<String, Never, Int>(interval: 3, latest: true)
        XCTAssertTrue(state.subscribe(RecordingSubscription()))
        state.request(.unlimited)
        guard case .emitNow = state.receive("a", now: 0) else { return XCTFail("first value: at once") }
        XCTAssertEqual(state.emit(now: 0)?.value, "a")
        guard case .emit(at: 3) = state.receive("b", now: 1) else { return XCTFail("second value waits") }
        guard case .none = state.receive("c", now: 2) else { return XCTFail("latest: replaces the held value") }
        XCTAssertEqual(state.emit(now: 3)?.value, "c")
        guard case .emitNow = state.receive("d", now: 6) else { return XCTFail("the interval has passed") }
    }

    func testThrottleStateFirstKeepsTheHeldValueAndTheCompletionRidesWithIt() {
        var state = ThrottleState<String, Never, Int>(interval: 3, latest: false)
        XCTAssertTrue(state.subscribe(RecordingSubscription()))
        state.request(.unlimited)
        _ = state.receive("a", now: 0)
        _ = state.emit(now: 0)
        _ = state.receive("b", now: 1)
        _ = state.receive("c", now: 2)
        XCTAssertFalse(state.complete(.finished), "the completion waits for the scheduled value")
        XCTAssertFalse(state.emitsOnlyAValue)
        let emitted = state.emit(now: nil)
        XCTAssertEqual(emitted?.value, "b")
        XCTAssertNotNil(emitted?.completion)
        XCTAssertNil(state.emit(now: nil), "the stream has ended")
    }

    func testThrottleStateDropsValuesWithoutDemandAndACancelBeforeTheSubscriptionEndsIt() {
        var state = ThrottleState<String, Never, Int>(interval: 3, latest: true)
        XCTAssertTrue(state.subscribe(RecordingSubscription()))
        guard case .none = state.receive("a", now: 0) else { return XCTFail("no demand: dropped") }
        var early = ThrottleState<String, Never, Int>(interval: 3, latest: true)
        XCTAssertNil(early.cancel())
        XCTAssertFalse(early.subscribe(RecordingSubscription()))
    }

    func testTimeoutStateStaleClocksDoNothing() {
        var state = TimeoutState()
        let first = state.subscribe(RecordingSubscription(), on: 1)!
        XCTAssertFalse(state.delivered())
        let second = state.request().clock!
        XCTAssertNil(state.request().clock, "only the first request restarts the clock")
        guard case .ignore = state.fire(first, on: 1) else { return XCTFail("a replaced clock does nothing") }
        guard case .timedOut = state.fire(second, on: 2) else { return XCTFail("the current clock times out") }
        XCTAssertNil(state.receiveValue())
        XCTAssertNil(state.cancel(), "the stream has ended")
    }

    func testTimeoutStateCompletionStopsTheClockButACancelStillReachesTheUpstream() {
        var state = TimeoutState()
        XCTAssertNil(state.cancel(), "a cancel before the subscription does nothing")
        let generation = state.subscribe(RecordingSubscription(), on: 1)!
        XCTAssertFalse(state.delivered())
        XCTAssertTrue(state.complete() != nil)
        guard case .ignore = state.fire(generation, on: 1) else { return XCTFail("the completion stopped the clock") }
        XCTAssertNotNil(state.cancel()?.upstream)
        XCTAssertFalse(state.deliverCompletion(), "cancelled before the completion's action ran")
    }

    func testTimeoutStateFirstClockFiringInsideItsScheduleCallIsTooEarly() {
        var state = TimeoutState()
        let generation = state.subscribe(RecordingSubscription(), on: 1)!
        guard case .tooEarly = state.fire(generation, on: 1) else { return XCTFail("Combine traps here") }
    }

    func testTimeoutStateClockRunningOutOnAnotherThreadBeforeTheDeliveryLeavesTheCompletionToIt() {
        var state = TimeoutState()
        let generation = state.subscribe(RecordingSubscription(), on: 1)!
        guard case .timedOutBeforeDelivery = state.fire(generation, on: 2) else {
            return XCTFail("the upstream is cancelled at once")
        }
        XCTAssertNotNil(state.started(generation, clock: AnyCancellable {}), "ended: the caller cancels the clock")
        XCTAssertNil(state.receiveValue())
        XCTAssertNil(state.request().upstream)
        XCTAssertTrue(state.delivered(), "the delivering thread completes the subscriber")
        XCTAssertFalse(state.delivered())

        var cancelled = TimeoutState()
        let clock = cancelled.subscribe(RecordingSubscription(), on: 1)!
        guard case .timedOutBeforeDelivery = cancelled.fire(clock, on: 2) else { return XCTFail() }
        let ended = cancelled.cancel()
        XCTAssertNotNil(ended, "the cancel ends the stream")
        XCTAssertNil(ended?.upstream, "cancelled already")
        XCTAssertFalse(cancelled.delivered(), "no completion after the subscriber's cancel")
    }

    func testTimeoutStateClockRunOutBeneathTheDeliveryOnItsThreadTimesOutAtOnce() {
        var state = TimeoutState()
        let generation = state.subscribe(RecordingSubscription(), on: 1)!
        XCTAssertNil(state.started(generation, clock: AnyCancellable {}))
        guard case .timedOut = state.fire(generation, on: 1) else {
            return XCTFail("a scheduler run from inside receive(subscription:)")
        }
        XCTAssertFalse(state.delivered())
    }

    func testCollectByTimeStateByTimeGathersUntilTheTick() {
        var state = CollectByTimeState<Int>(count: nil)
        XCTAssertEqual(state.upstreamDemandPerValue, .max(1))
        XCTAssertEqual(state.request(.max(1)), .max(1), "one value whatever the downstream asked for")
        XCTAssertNil(state.receive(1))
        XCTAssertNil(state.receive(2))
        XCTAssertEqual(state.tick(), [1, 2])
        XCTAssertNil(state.receive(3))
        XCTAssertNil(state.tick(), "no demand: keep gathering")
        XCTAssertEqual(state.finish(failed: false).rest, [3])
    }

    func testCollectByTimeStateByTimeOrCountPublishesFullGroupsAndAsksForCountPerGroup() {
        var state = CollectByTimeState<Int>(count: 2)
        XCTAssertEqual(state.upstreamDemandPerValue, .none)
        XCTAssertEqual(state.request(.max(2)), .max(4))
        XCTAssertNil(state.receive(1))
        XCTAssertEqual(state.receive(2), [1, 2])
        XCTAssertNil(state.receive(3))
        XCTAssertEqual(state.tick(), [3])
        XCTAssertNil(state.tick())
        state.grant(.max(1))
        XCTAssertNil(state.receive(4))
        XCTAssertEqual(state.tick(), [4], "granted demand lets a group out")
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

    func testScheduledStreamIgnoresEventsBeforeItsSubscriptionAndRefusesASecondOne() {
        var stream = ScheduledStream(downstream: RecordingSubscriber<Int, Never>())
        XCTAssertFalse(stream.receive(1), "a value before the subscription is ignored")
        XCTAssertFalse(stream.receive(completion: .finished), "so is a completion")
        XCTAssertNil(stream.cancel(), "and a cancel")
        XCTAssertNil(stream.requestTarget)
        let upstream = RecordingSubscription()
        XCTAssertTrue(stream.attach(upstream))
        XCTAssertFalse(stream.attach(RecordingSubscription()), "a second subscription is for the caller to cancel")
        XCTAssertTrue(stream.requestTarget as? RecordingSubscription === upstream)
        XCTAssertTrue(stream.deliveryTarget as? RecordingSubscription === upstream)
        guard case .idle = stream.due() else { return XCTFail("nothing was queued") }
    }

    func testScheduledStreamDeliversTheCompletionLastAndThenLetsTheUpstreamGo() {
        var stream = ScheduledStream(downstream: RecordingSubscriber<Int, Never>())
        weak var released: RecordingSubscription?
        do {
            let upstream = RecordingSubscription()
            released = upstream
            XCTAssertTrue(stream.attach(upstream))
        }
        XCTAssertTrue(stream.receive(1))
        XCTAssertTrue(stream.receive(completion: .finished))
        XCTAssertFalse(stream.receive(2), "nothing is queued after the upstream's completion")
        XCTAssertFalse(stream.receive(completion: .finished))
        XCTAssertNil(stream.requestTarget, "requests no longer reach a completed upstream")
        XCTAssertNotNil(stream.deliveryTarget, "the demand of values in flight still does")
        guard case .deliver(.value(1), _) = stream.due() else { return XCTFail("the value first") }
        guard case .idle = stream.due() else { return XCTFail("the completion's action only marks it ready") }
        guard case .deliver(.completion(.finished), _) = stream.next() else { return XCTFail("then the completion") }
        XCTAssertNotNil(released, "the upstream is held while the completion is being delivered")
        guard case .idle = stream.next() else { return XCTFail("nothing after the completion") }
        XCTAssertNil(stream.deliveryTarget)
        XCTAssertNil(released, "the turn that delivered the completion lets the upstream go")
        XCTAssertNil(stream.cancel(), "a cancel after the end does nothing")
    }

    func testScheduledStreamCancelHandsBackTheUpstreamAndWhatWasQueued() {
        var stream = ScheduledStream(downstream: RecordingSubscriber<Int, Never>())
        let upstream = RecordingSubscription()
        XCTAssertTrue(stream.attach(upstream))
        XCTAssertTrue(stream.receive(1))
        XCTAssertTrue(stream.receive(2))
        guard let cancelled = stream.cancel() else { return XCTFail("a live stream hands back its upstream") }
        XCTAssertTrue(cancelled.upstream as? RecordingSubscription === upstream)
        XCTAssertNotNil(cancelled.released.0, "the subscriber, for the caller to release outside the lock")
        XCTAssertEqual(cancelled.released.1.count, 2, "and the queued values")
        XCTAssertEqual(upstream.events, [], "the caller cancels the upstream, not the state machine")
        guard case .idle = stream.due() else { return XCTFail("the values' actions deliver nothing") }
        XCTAssertFalse(stream.receive(3))
        XCTAssertFalse(stream.attach(RecordingSubscription()))
        XCTAssertNil(stream.deliveryTarget)
        XCTAssertNil(stream.cancel(), "a second cancel does nothing")
    }

    func testScheduledStreamCancelAfterTheUpstreamCompletedStillDeliversTheCompletion() {
        var stream = ScheduledStream(downstream: RecordingSubscriber<Int, TestError>())
        XCTAssertTrue(stream.attach(RecordingSubscription()))
        XCTAssertTrue(stream.receive(completion: .failure(TestError(id: 1))))
        XCTAssertNil(stream.cancel(), "a completed upstream is not told of the cancel")
        XCTAssertNil(stream.deliveryTarget)
        guard case .deliver(.completion(.failure(TestError(id: 1))), _) = stream.due() else {
            return XCTFail("the completion still goes out")
        }
        guard case .idle = stream.next() else { return XCTFail("and nothing after it") }
    }
}
