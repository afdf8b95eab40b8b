import Tether
@testable import TetherCore
import TetherTesting
import XCTest

/// The state machine behind a subscription to a `Future`, driven directly: no threads, no
/// promise. Each scenario records what every event answered and where the state stood after it,
/// and asserts the whole history.
final class FutureStateTests: XCTestCase {
    private typealias State = FutureState<RecordingSubscriber<Int, TestError>>
    private typealias Step = StateStep<State>

    private let downstream = RecordingSubscriber<Int, TestError>()
    /// The future the state withdraws from on cancel and shows in the mirror.
    private let future = Future<Int, TestError> { _ in }

    private func history(_ steps: [Step]) -> [String] {
        stateHistory(State(downstream: downstream, future: future), steps) { state in
            [
                state.isReleased ? "released" : self.name(state.downstream),
                "outcome \(state.outcome.map { "\($0)" } ?? "none")", state.demanded ? "demanded" : "not demanded",
                state.future === self.future ? "future held" : "future let go",
            ].joined(separator: ", ")
        }
    }

    private func name(_ subscriber: RecordingSubscriber<Int, TestError>?) -> String {
        guard let subscriber else { return "nobody" }
        return subscriber === downstream ? "downstream" : "another subscriber"
    }

    private func describe(_ action: State.Action) -> String {
        switch action {
        case .none: return "nothing"
        case .deliver(let subscriber, let outcome): return "deliver \(outcome) to \(name(subscriber))"
        }
    }

    private func settle(_ outcome: Result<Int, TestError>) -> Step {
        Step { state in "settle \(outcome): \(self.describe(state.settle(outcome)))" }
    }

    private var request: Step {
        Step { state in "request: \(self.describe(state.request()))" }
    }

    private let settledDelivered = Step { state in
        state.settledDelivered()
        return "settled outcome delivered"
    }

    private var cancel: Step {
        Step { state in
            let (released, future) = state.cancel()
            return "cancel: let go of \(self.name(released)), withdraw from "
                + (future === self.future ? "the future" : "nothing")
        }
    }

    func testAValueWaitsForTheRequestWhichKeepsTheFuture() {
        XCTAssertEqual(
            history([settle(.success(1)), request, request, settle(.success(2))]),
            [
                "settle success(1): nothing -> downstream, outcome success(1), not demanded, future held",
                "request: deliver success(1) to downstream -> released, outcome none, demanded, future held",
                "request: nothing -> released, outcome none, demanded, future held",
                "settle success(2): nothing -> released, outcome none, demanded, future held",
            ])
    }

    func testARequestWaitsForTheValueWhoseDeliveryLetsTheFutureGo() {
        XCTAssertEqual(
            history([request, request, settle(.success(1)), settledDelivered, request]),
            [
                "request: nothing -> downstream, outcome none, demanded, future held",
                "request: nothing -> downstream, outcome none, demanded, future held",
                "settle success(1): deliver success(1) to downstream"
                    + " -> released, outcome none, demanded, future held",
                "settled outcome delivered -> released, outcome none, demanded, future let go",
                "request: nothing -> released, outcome none, demanded, future let go",
            ])
    }

    func testAFailureGoesOutWithoutARequest() {
        XCTAssertEqual(
            history([settle(.failure(TestError(id: 1))), settledDelivered, request]),
            [
                "settle failure(TestError(1)): deliver failure(TestError(1)) to downstream"
                    + " -> released, outcome none, not demanded, future held",
                "settled outcome delivered -> released, outcome none, not demanded, future let go",
                "request: nothing -> released, outcome none, demanded, future let go",
            ])
    }

    func testCancelLetsGoOfTheSubscriberTheOutcomeAndTheFuture() {
        XCTAssertEqual(
            history([settle(.success(1)), cancel, request, settle(.failure(TestError(id: 2))), cancel]),
            [
                "settle success(1): nothing -> downstream, outcome success(1), not demanded, future held",
                "cancel: let go of downstream, withdraw from the future"
                    + " -> released, outcome none, not demanded, future let go",
                "request: nothing -> released, outcome none, demanded, future let go",
                "settle failure(TestError(2)): nothing -> released, outcome none, demanded, future let go",
                "cancel: let go of nobody, withdraw from nothing -> released, outcome none, demanded, future let go",
            ])
    }
}
