import Tether
@testable import TetherExtras
import TetherTesting
import XCTest

/// The state machine behind `flatMapFirst`, driven directly: no threads, no publishers. Each
/// scenario records what every event answered and where the state stood after it, and asserts
/// the whole history.
final class FlatMapFirstStateTests: XCTestCase {
    private typealias State = FlatMapFirstState<RecordingSubscriber<Int, TestError>, String>
    private typealias Step = StateStep<State>

    private let downstream = RecordingSubscriber<Int, TestError>()
    private let subscriptions = NamedSubscriptions("upstream", "inner", "second", "stray")

    private func history(_ steps: [Step]) -> [String] {
        stateHistory(State(downstream: downstream, transform: "transform"), steps, describe: describe)
    }

    private func describe(_ state: State) -> String {
        var words = [
            subscriptions.name(state.downstream, downstream: downstream), "upstream \(subscriptions(state.upstream))",
            "inner \(subscriptions(state.inner))", state.innerActive ? "active" : "idle", "demand \(state.demand)",
            "delivering \(state.delivering)",
        ]
        if state.upstreamFinished { words.append("upstream finished") }
        if let failure = state.pendingFailure { words.append("pending \(failure)") }
        return words.joined(separator: ", ")
    }

    private func upstreamSubscribed(_ name: String) -> Step {
        Step { state in
            let answer = state.upstreamSubscribed(self.subscriptions[name]).map {
                "hand over to \(self.subscriptions.name($0, downstream: self.downstream))"
            }
            return "upstream subscribed \(name): \(answer ?? "cancel it")"
        }
    }

    private let upstreamValue = Step { state in "upstream value: \(state.upstreamValue() ?? "dropped")" }

    private func upstreamCompleted(_ completion: Subscribers.Completion<TestError>) -> Step {
        Step { state in
            "upstream \(completion): \(self.subscriptions.describe(downstream: self.downstream, state.upstreamCompleted(completion)))"
        }
    }

    private func innerSubscribed(_ name: String) -> Step {
        Step { state in
            let answer = state.innerSubscribed(self.subscriptions[name]).map { "ask \($0)" } ?? "cancel it"
            return "inner subscribed \(name): \(answer)"
        }
    }

    private var innerValue: Step {
        Step { state in
            "inner value: to \(state.innerValue().map { self.subscriptions.name($0, downstream: self.downstream) } ?? "nobody")"
        }
    }

    private func delivered(_ more: Subscribers.Demand) -> Step {
        Step { state in
            "delivered, \(more) more: \(self.subscriptions.describe(downstream: self.downstream, state.delivered(more)))"
        }
    }

    private func innerCompleted(_ completion: Subscribers.Completion<TestError>) -> Step {
        Step { state in
            "inner \(completion): \(self.subscriptions.describe(downstream: self.downstream, state.innerCompleted(completion)))"
        }
    }

    private func request(_ demand: Subscribers.Demand) -> Step {
        Step { state in "request \(demand): to \(self.subscriptions(state.request(demand)))" }
    }

    private var cancel: Step {
        Step { state in self.subscriptions.describeCancel(downstream: self.downstream, state.cancel()) }
    }

    /// The opening most scenarios share: subscribed, and one value made an inner, whose
    /// subscription arrived.
    private var opening: [Step] { [upstreamSubscribed("upstream"), upstreamValue, innerSubscribed("inner")] }

    private let opened = [
        "upstream subscribed upstream: hand over to downstream"
            + " -> downstream, upstream upstream, inner nil, idle, demand max(0), delivering 0",
        "upstream value: transform -> downstream, upstream upstream, inner nil, active, demand max(0), delivering 0",
        "inner subscribed inner: ask max(0)"
            + " -> downstream, upstream upstream, inner inner, active, demand max(0), delivering 0",
    ]

    func testOneInnerAtATimeTakesTheUnmetDemandAndTheStreamFinishesAfterBoth() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), request(.max(3)), upstreamValue, upstreamValue,
                innerSubscribed("inner"), innerValue, delivered(.max(1)), request(.max(2)),
                innerCompleted(.finished), upstreamValue, innerSubscribed("second"), upstreamCompleted(.finished),
                upstreamValue, innerCompleted(.finished),
            ]),
            [
                "upstream subscribed upstream: hand over to downstream"
                    + " -> downstream, upstream upstream, inner nil, idle, demand max(0), delivering 0",
                "request max(3): to nil -> downstream, upstream upstream, inner nil, idle, demand max(3), delivering 0",
                "upstream value: transform"
                    + " -> downstream, upstream upstream, inner nil, active, demand max(3), delivering 0",
                "upstream value: dropped"
                    + " -> downstream, upstream upstream, inner nil, active, demand max(3), delivering 0",
                "inner subscribed inner: ask max(3)"
                    + " -> downstream, upstream upstream, inner inner, active, demand max(3), delivering 0",
                "inner value: to downstream"
                    + " -> downstream, upstream upstream, inner inner, active, demand max(2), delivering 1",
                "delivered, max(1) more: goes on"
                    + " -> downstream, upstream upstream, inner inner, active, demand max(3), delivering 0",
                "request max(2): to inner"
                    + " -> downstream, upstream upstream, inner inner, active, demand max(5), delivering 0",
                "inner finished: goes on"
                    + " -> downstream, upstream upstream, inner nil, idle, demand max(5), delivering 0",
                "upstream value: transform"
                    + " -> downstream, upstream upstream, inner nil, active, demand max(5), delivering 0",
                "inner subscribed second: ask max(5)"
                    + " -> downstream, upstream upstream, inner second, active, demand max(5), delivering 0",
                "upstream finished: goes on"
                    + " -> downstream, upstream nil, inner second, active, demand max(5), delivering 0,"
                    + " upstream finished",
                "upstream value: dropped"
                    + " -> downstream, upstream nil, inner second, active, demand max(5), delivering 0,"
                    + " upstream finished",
                "inner finished: cancel nil and nil, finished to downstream"
                    + " -> released, upstream nil, inner nil, idle, demand max(5), delivering 0, upstream finished",
            ])
    }

    func testTheUpstreamFinishingWithNoActiveInnerFinishesAtOnce() {
        XCTAssertEqual(
            history(
                opening + [
                    innerCompleted(.finished), upstreamCompleted(.finished), upstreamValue,
                    upstreamCompleted(.finished),
                ]),
            opened + [
                "inner finished: goes on"
                    + " -> downstream, upstream upstream, inner nil, idle, demand max(0), delivering 0",
                "upstream finished: cancel nil and nil, finished to downstream"
                    + " -> released, upstream nil, inner nil, idle, demand max(0), delivering 0, upstream finished",
                "upstream value: dropped"
                    + " -> released, upstream nil, inner nil, idle, demand max(0), delivering 0, upstream finished",
                "upstream finished: goes on"
                    + " -> released, upstream nil, inner nil, idle, demand max(0), delivering 0, upstream finished",
            ])
    }

    func testAnUpstreamFailureDuringDeliveriesWaitsForTheLastOfThem() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), request(.max(2)), upstreamValue, innerSubscribed("inner"), innerValue,
                innerValue, upstreamCompleted(.failure(TestError(id: 1))),
                upstreamCompleted(.failure(TestError(id: 2))), delivered(.max(1)), delivered(.none),
            ]),
            [
                "upstream subscribed upstream: hand over to downstream"
                    + " -> downstream, upstream upstream, inner nil, idle, demand max(0), delivering 0",
                "request max(2): to nil -> downstream, upstream upstream, inner nil, idle, demand max(2), delivering 0",
                "upstream value: transform"
                    + " -> downstream, upstream upstream, inner nil, active, demand max(2), delivering 0",
                "inner subscribed inner: ask max(2)"
                    + " -> downstream, upstream upstream, inner inner, active, demand max(2), delivering 0",
                "inner value: to downstream"
                    + " -> downstream, upstream upstream, inner inner, active, demand max(1), delivering 1",
                "inner value: to downstream"
                    + " -> downstream, upstream upstream, inner inner, active, demand max(0), delivering 2",
                "upstream failure(TestError(1)): goes on"
                    + " -> downstream, upstream nil, inner inner, active, demand max(0), delivering 2,"
                    + " pending TestError(1)",
                "upstream failure(TestError(2)): goes on"
                    + " -> downstream, upstream nil, inner inner, active, demand max(0), delivering 2,"
                    + " pending TestError(1)",
                "delivered, max(1) more: goes on"
                    + " -> downstream, upstream nil, inner inner, active, demand max(1), delivering 1,"
                    + " pending TestError(1)",
                "delivered, max(0) more: cancel nil and inner, failure(TestError(1)) to downstream"
                    + " -> released, upstream nil, inner nil, active, demand max(1), delivering 0",
            ])
    }

    func testAFailureOfEitherCancelsTheOtherAndLaterSignalsAreInert() {
        XCTAssertEqual(
            history(
                opening + [
                    upstreamCompleted(.failure(TestError(id: 1))), innerValue, request(.max(1)), upstreamValue,
                    innerSubscribed("stray"), upstreamSubscribed("stray"), innerCompleted(.failure(TestError(id: 2))),
                ]),
            opened + [
                "upstream failure(TestError(1)): cancel nil and inner, failure(TestError(1)) to downstream"
                    + " -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "inner value: to nobody -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "request max(1): to nil -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "upstream value: dropped -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "inner subscribed stray: cancel it"
                    + " -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "upstream subscribed stray: cancel it"
                    + " -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "inner failure(TestError(2)): goes on"
                    + " -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
            ])
        XCTAssertEqual(
            history(opening + [innerCompleted(.failure(TestError(id: 1))), upstreamCompleted(.finished)]),
            opened + [
                "inner failure(TestError(1)): cancel upstream and nil, failure(TestError(1)) to downstream"
                    + " -> released, upstream nil, inner nil, idle, demand max(0), delivering 0",
                "upstream finished: goes on -> released, upstream nil, inner nil, idle, demand max(0), delivering 0",
            ])
    }

    func testSubscriptionsNotAwaitedAreCancelledAndCancelLetsEverythingGo() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), upstreamSubscribed("stray"), innerSubscribed("stray"), upstreamValue,
                innerSubscribed("inner"), innerSubscribed("stray"), cancel, cancel, innerCompleted(.finished),
            ]),
            [
                "upstream subscribed upstream: hand over to downstream"
                    + " -> downstream, upstream upstream, inner nil, idle, demand max(0), delivering 0",
                "upstream subscribed stray: cancel it"
                    + " -> downstream, upstream upstream, inner nil, idle, demand max(0), delivering 0",
                // Taken without an active inner: the operator does not tell inners apart.
                "inner subscribed stray: ask max(0)"
                    + " -> downstream, upstream upstream, inner stray, idle, demand max(0), delivering 0",
                "upstream value: transform"
                    + " -> downstream, upstream upstream, inner stray, active, demand max(0), delivering 0",
                "inner subscribed inner: cancel it"
                    + " -> downstream, upstream upstream, inner stray, active, demand max(0), delivering 0",
                "inner subscribed stray: cancel it"
                    + " -> downstream, upstream upstream, inner stray, active, demand max(0), delivering 0",
                "cancel: let go of downstream, cancel upstream and stray"
                    + " -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "cancel: let go of released, cancel nil and nil"
                    + " -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
                "inner finished: goes on -> released, upstream nil, inner nil, active, demand max(0), delivering 0",
            ])
    }
}
