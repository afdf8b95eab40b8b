@testable import TetherCore
import TetherTesting
import XCTest

/// The buffer's state machine, driven directly: no threads, no subscription objects.
final class BufferStateTests: TetherTestCase {
    private typealias State = BufferState<AnySubscriber<Int, TestError>>

    private func subscribed(
        size: Int = 2, prefetch: Publishers.PrefetchStrategy = .byRequest,
        whenFull: Publishers.BufferingStrategy<TestError> = .dropNewest
    ) -> (State, RecordingSubscription) {
        var state = State(downstream: AnySubscriber(), size: size, prefetch: prefetch, whenFull: whenFull)
        let upstream = RecordingSubscription()
        _ = state.receive(subscription: upstream)
        return (state, upstream)
    }

    /// Runs the loop the way the class does, answering `answer` to every value.
    private func drain(_ state: inout State, from step: State.Step, answer: Subscribers.Demand = .none) -> [String] {
        var log: [String] = []
        var step = step
        while true {
            switch step {
            case .deliver(let value, _):
                log.append("value \(value)")
                step = state.delivered(answer)
            case .complete(let completion, _):
                log.append("complete \(completion)")
                step = state.next()
            case .idle(.request(let owed, let upstream)):
                log.append("owe \(owed) to \(upstream)")
                return log
            case .idle(.nothing):
                return log
            }
        }
    }

    func testInitialDemandFollowsThePrefetchStrategy() {
        var keepFull = State(downstream: AnySubscriber(), size: 7, prefetch: .keepFull, whenFull: .dropNewest)
        XCTAssertEqual(keepFull.receive(subscription: RecordingSubscription()), .max(7))
        XCTAssertNil(keepFull.receive(subscription: RecordingSubscription()), "a second subscription is refused")
        var byRequest = State(downstream: AnySubscriber(), size: 7, prefetch: .byRequest, whenFull: .dropNewest)
        XCTAssertEqual(byRequest.receive(subscription: RecordingSubscription()), .unlimited)
    }

    func testNothingIsDeliveredUntilTheSubscriptionHasBeenHandedOver() {
        var (state, _) = subscribed()
        guard case .kept = state.receive(1) else { return XCTFail("delivered during the hand-over") }
        XCTAssertNil(state.request(.max(5)), "the hand-over's loop delivers it")
        XCTAssertEqual(drain(&state, from: state.handedOver()), ["value 1"])
        XCTAssertFalse(state.delivering)
    }

    func testAValueWithDemandGoesStraightThrough() {
        var (state, _) = subscribed()
        _ = drain(&state, from: state.handedOver())
        guard case .idle(.nothing) = state.request(.max(1)) else { return XCTFail("nothing to deliver yet") }
        guard case .drain(let step) = state.receive(9) else { return XCTFail("not delivered") }
        XCTAssertEqual(drain(&state, from: step), ["value 9"])
        XCTAssertTrue(state.storage.isEmpty)
    }

    func testKeepFullOwesOnePerDeliveredValue() {
        var (state, upstream) = subscribed(size: 4, prefetch: .keepFull)
        _ = drain(&state, from: state.handedOver())
        for value in 1...3 { _ = state.receive(value) }
        guard let step = state.request(.max(2)) else { return XCTFail("no loop") }
        XCTAssertEqual(drain(&state, from: step), ["value 1", "value 2", "owe max(2) to \(upstream)"])
        XCTAssertEqual(state.storage.elements, [3])
    }

    func testFullBufferPolicies() {
        var (newest, _) = subscribed(size: 2, whenFull: .dropNewest)
        var (oldest, _) = subscribed(size: 2, whenFull: .dropOldest)
        var (failing, upstream) = subscribed(size: 2, whenFull: .customError { TestError(id: 9) })
        for value in 1...3 {
            _ = newest.receive(value)
            _ = oldest.receive(value)
        }
        XCTAssertEqual(newest.storage.elements, [1, 2])
        XCTAssertEqual(oldest.storage.elements, [2, 3])
        _ = failing.receive(1)
        _ = failing.receive(2)
        guard case .overflow(let makeError) = failing.receive(3) else { return XCTFail("no overflow") }
        XCTAssertTrue(failing.overflowed(makeError()) as AnyObject? === upstream)
        XCTAssertEqual(failing.pending, .failure(TestError(id: 9)))
        guard case .kept = failing.receive(4) else { return XCTFail("a value after the overflow was taken") }
        XCTAssertEqual(failing.storage.elements, [1, 2])
    }

    func testFailureOvertakesBufferedValuesOnlyWithoutDemand() {
        var (state, _) = subscribed(size: 3)
        _ = drain(&state, from: state.handedOver())
        _ = state.receive(1)
        _ = state.receive(2)
        let (released, step) = state.receive(completion: .failure(TestError(id: 1)))
        XCTAssertNotNil(released)
        guard let step else { return XCTFail("a failure without demand must be delivered at once") }
        XCTAssertEqual(drain(&state, from: step), ["complete failure(TestError(1))"])
        XCTAssertNil(state.downstream)
        XCTAssertTrue(state.storage.isEmpty)
    }

    func testFinishedWaitsForAnEmptyBufferAndDemand() {
        var (state, _) = subscribed(size: 3)
        _ = drain(&state, from: state.handedOver())
        _ = state.receive(1)
        XCTAssertNil(state.receive(completion: .finished).step)
        XCTAssertEqual(drain(&state, from: state.request(.max(1))!), ["value 1"])
        XCTAssertNotNil(state.downstream, "finished waits for more demand")
        XCTAssertEqual(drain(&state, from: state.request(.max(1))!), ["complete finished"])
    }

    func testCancelReleasesEverythingAndStopsTheLoop() {
        var (state, upstream) = subscribed(size: 3)
        _ = drain(&state, from: state.handedOver())
        _ = state.receive(1)
        guard let released = state.cancel(), case .subscribed(let held) = released.upstream else {
            return XCTFail("nothing released")
        }
        XCTAssertTrue(held as AnyObject === upstream)
        XCTAssertEqual(released.storage.elements, [1])
        XCTAssertNil(state.cancel())
        XCTAssertNil(state.request(.max(1)))
        guard case .idle(.nothing) = state.next() else { return XCTFail("the loop went on") }
    }
}
