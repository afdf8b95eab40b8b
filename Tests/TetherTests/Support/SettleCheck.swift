import Tether
import XCTest

/// Checks a subject conduit's quick `settle(more)` on random states: it ends the turn exactly
/// when, with `more` added, the full transition's next step is idle, and it leaves the state that
/// adding `more` leaves.
/// - Parameters:
///   - make: A random state.
///   - settle: The quick transition.
///   - add: Adds the returned demand, as the full path does first.
///   - nextIsIdle: The full transition's next step, run on the state `add` left: whether it is idle.
///   - describe: The state, for comparing and for failure messages.
func assertSettleAgreesWithTheNextStep<State>(
    seed: UInt64,
    make: (inout SeededGenerator) -> State,
    settle: (inout State, Subscribers.Demand) -> Bool,
    add: (inout State, Subscribers.Demand) -> Void,
    nextIsIdle: (inout State) -> Bool,
    describe: (State) -> String,
    file: StaticString = #filePath, line: UInt = #line
) {
    var random = SeededGenerator(seed: seed)
    var outcomes: [Bool: Int] = [:]
    for _ in 0..<20_000 {
        let state = make(&random)
        let more: Subscribers.Demand = [.none, .none, .max(1), .unlimited].randomElement(using: &random)!
        var quick = state
        let settled = settle(&quick, more)
        var full = state
        add(&full, more)
        let added = describe(full)
        let idle = nextIsIdle(&full)
        XCTAssertEqual(settled, idle, "settle(\(more)) from \(describe(state))", file: file, line: line)
        XCTAssertEqual(describe(quick), added, "settle(\(more)) from \(describe(state))", file: file, line: line)
        outcomes[settled, default: 0] += 1
    }
    // Both outcomes happened many times, or the comparison proves little.
    XCTAssertGreaterThan(outcomes[true, default: 0], 1_000, file: file, line: line)
    XCTAssertGreaterThan(outcomes[false, default: 0], 1_000, file: file, line: line)
}
