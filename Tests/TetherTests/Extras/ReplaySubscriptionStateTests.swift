import Tether
import TetherCore
@testable import TetherExtras
import TetherTesting
import XCTest

/// The replay subject's per-subscriber state machine, driven directly: no threads, no subject.
/// Each test plays the turn's holder, delivering what ``ReplaySubscriptionState/next()`` says until it
/// is idle, and asserts the whole history delivered.
final class ReplaySubscriptionStateTests: TetherTestCase {
    private typealias State = ReplaySubscriptionState<RecordingSubscriber<Int, TestError>>

    private func state(capacity: Int = 3, backlog: [Int] = [], completion: Subscribers.Completion<TestError>? = nil)
        -> State
    {
        var ring = RingBuffer<Int>()
        for value in backlog { ring.append(value) }
        var state = State(
            downstream: RecordingSubscriber(), parent: nil, capacity: capacity, backlog: ring, completion: completion)
        // As once the subscription is handed over, where every test but the one below starts.
        state.handedOver = true
        return state
    }

    func testACompletionWaitsUntilTheSubscriptionIsHandedOver() {
        // The subject attaches the conduit, then hands the subscription over after its lock: a
        // completion sent from another thread in between is kept until the hand-over.
        var state = state(backlog: [1])
        state.handedOver = false
        state.finish(.finished)
        XCTAssertFalse(state.isDue)
        XCTAssertEqual(drain(&state), [])
        state.handedOver = true
        XCTAssertFalse(state.isDue, "the backlog goes first, on demand")
        XCTAssertTrue(state.request(.max(1)))
        XCTAssertEqual(drain(&state), ["1", "finished"])
    }

    /// What the turn's holder delivers, until the turn is idle; each delivery returns `more`.
    private func drain(_ state: inout State, returning more: Subscribers.Demand = .none) -> [String] {
        var delivered: [String] = []
        while true {
            switch state.next() {
            case .idle:
                return delivered
            case .deliver(let value, _):
                delivered.append("\(value)")
                state.add(more)
            case .complete(let completion, let released):
                if case .failure(let error) = completion {
                    delivered.append("failure \(error.id)")
                } else {
                    delivered.append("finished")
                }
                XCTAssertNotNil(released.downstream, "the completion hands the subscriber over to be released")
                return delivered
            }
        }
    }

    func testValuesWithoutDemandWaitInABoundedBacklogAndGoOldestFirst() {
        var state = state(capacity: 2)
        for value in 1...4 {
            guard case .idle = state.take(value) else { return XCTFail("\(value) went out without demand") }
        }
        XCTAssertEqual(Array(state.backlog), [3, 4], "the backlog keeps the newest `capacity` values")
        XCTAssertTrue(state.request(.max(1)))
        XCTAssertEqual(drain(&state), ["3"])
        XCTAssertFalse(state.request(.none), "one value waits, but nothing asks for it")
        XCTAssertTrue(state.request(.max(5)))
        XCTAssertEqual(drain(&state), ["4"])
        XCTAssertEqual(state.demand, .max(4))
    }

    func testAValueWithDemandGoesStraightOutOnlyWhenNothingOlderIsOwed() {
        var state = state(backlog: [1, 2])
        XCTAssertTrue(state.request(.max(3)))
        // The sender finds the backlog due: it moves it ahead of its own value and drains.
        guard case .drain = state.take(3) else { return XCTFail("the backlog was overtaken") }
        XCTAssertEqual(drain(&state), ["1", "2", "3"])
        guard case .idle = state.take(4) else { return XCTFail("delivered without demand") }
        XCTAssertTrue(state.request(.max(1)))
        XCTAssertEqual(drain(&state), ["4"])
        XCTAssertFalse(state.request(.max(1)), "nothing is owed")
        guard case .deliver = state.take(5) else { return XCTFail("nothing was owed: the sender delivers") }
    }

    func testAValueSentFromInsideADeliveryIsLeftForTheHolderInOrder() {
        var state = state()
        XCTAssertFalse(state.request(.max(2)))
        guard case .deliver = state.take(1) else { return XCTFail("not delivered") }
        // Inside the subscriber's `receive(1)`, the subject sends 2 and 3: 2 has demand, 3 waits.
        state.leave(2)
        state.leave(3)
        XCTAssertFalse(state.settle(.none), "2 is left for this turn")
        XCTAssertEqual(drain(&state), ["2"])
        XCTAssertEqual(Array(state.backlog), [3])
        XCTAssertTrue(state.request(.max(1)))
        XCTAssertEqual(drain(&state), ["3"])
    }

    func testTheCompletionWaitsForEveryOwedValue() {
        var state = state(backlog: [1, 2], completion: .finished)
        XCTAssertFalse(state.isDue, "values are owed and nothing asks for them")
        XCTAssertTrue(state.request(.max(1)))
        XCTAssertEqual(drain(&state), ["1"])
        XCTAssertTrue(state.request(.max(1)))
        XCTAssertEqual(drain(&state), ["2", "finished"])
        XCTAssertNil(state.downstream)
        guard case .idle = state.take(3) else { return XCTFail("a value after the completion") }
        XCTAssertFalse(state.request(.max(1)))
    }

    func testAFailureWaitsForTheBacklogToo() {
        var state = state(backlog: [1])
        state.finish(.failure(TestError(id: 1)))
        state.finish(.finished)
        XCTAssertTrue(state.request(.unlimited))
        XCTAssertEqual(drain(&state), ["1", "failure 1"])
    }

    func testTerminatingLetsGoOfEverythingAndEndsTheTurn() {
        var state = state(backlog: [1, 2])
        let released = state.terminate()
        XCTAssertNotNil(released.downstream)
        XCTAssertEqual(Array(released.backlog), [1, 2])
        XCTAssertTrue(state.settle(.max(1)), "nothing more to do once terminated")
        XCTAssertFalse(state.request(.max(1)))
        guard case .idle = state.next() else { return XCTFail("a delivery after the end") }
    }

    /// `settle` ends the turn exactly when, with the returned demand added, the next step is idle.
    func testSettleAgreesWithTheNextStepOnRandomStates() {
        assertSettleAgreesWithTheNextStep(
            seed: 7,
            make: { random in
                var state = state(
                    capacity: 2, backlog: Array(0..<Int.random(in: 0...2, using: &random)),
                    completion: random.chance(20) ? .finished : nil)
                state.demand = [.none, .max(1), .unlimited].randomElement(using: &random)!
                for value in 0..<Int.random(in: 0...2, using: &random) { state.left.append(10 + value) }
                if random.chance(10) { _ = state.terminate() }
                return state
            },
            settle: { $0.settle($1) }, add: { $0.add($1) },
            nextIsIdle: { if case .idle = $0.next() { true } else { false } },
            describe: describe)
    }

    private func describe(_ state: State) -> String {
        "downstream \(state.downstream != nil) demand \(state.demand) left \(Array(state.left)) backlog "
            + "\(Array(state.backlog)) completion \(String(describing: state.completion))"
    }
}
