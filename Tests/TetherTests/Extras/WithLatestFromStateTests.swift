import Tether
@testable import TetherExtras
import TetherTesting
import XCTest

/// The state machine behind `withLatestFrom`, driven directly: no threads, no publishers. Each
/// scenario records what every event answered and where the state stood after it, and asserts
/// the whole history.
final class WithLatestFromStateTests: XCTestCase {
    private typealias State = WithLatestFromState<RecordingSubscriber<Int, TestError>, String>
    private typealias Step = StateStep<State>

    private let downstream = RecordingSubscriber<Int, TestError>()
    private let subscriptions = NamedSubscriptions("upstream", "other", "stray")

    private func history(_ steps: [Step]) -> [String] {
        stateHistory(State(downstream: downstream), steps, describe: describe)
    }

    private func describe(_ state: State) -> String {
        var words = [
            subscriptions.name(state.downstream, downstream: downstream),
            "upstream \(subscriptions.describe(state.upstream))", "other \(subscriptions(state.other))",
            "latest \(state.latest ?? "none")",
        ]
        if state.pendingDemand > 0 { words.append("pending \(state.pendingDemand)") }
        if state.delivering > 0 { words.append("delivering \(state.delivering)") }
        if let failure = state.pendingFailure { words.append("pending \(failure)") }
        return words.joined(separator: ", ")
    }

    private func upstreamSubscribed(_ name: String) -> Step {
        Step { state in
            let answer = state.upstreamSubscribed(self.subscriptions[name]).map { "ask \($0)" } ?? "cancel it"
            return "upstream subscribed \(name): \(answer)"
        }
    }

    private var upstreamValue: Step {
        Step { state in
            switch state.upstreamValue() {
            case .ignore: return "upstream value: ignore"
            case .replace: return "upstream value: replace"
            case .deliver(let subscriber, let latest):
                return
                    "upstream value: deliver with \(latest) to \(self.subscriptions.name(subscriber, downstream: self.downstream))"
            }
        }
    }

    private var delivered: Step {
        Step { state in "delivered: \(self.subscriptions.describe(downstream: self.downstream, state.delivered()))" }
    }

    private func upstreamCompleted(_ completion: Subscribers.Completion<TestError>) -> Step {
        Step { state in
            let (ending, finished) = state.upstreamCompleted(completion)
            return
                "upstream \(completion): \(self.subscriptions.describe(downstream: self.downstream, ending)), let go of \(self.subscriptions(finished))"
        }
    }

    private func otherSubscribed(_ name: String) -> Step {
        Step { state in
            "other subscribed \(name): \(state.otherSubscribed(self.subscriptions[name]) ? "ask unlimited" : "cancel it")"
        }
    }

    private func otherValue(_ value: String) -> Step {
        Step { state in
            state.otherValue(value)
            return "other value \(value)"
        }
    }

    private func otherCompleted(_ completion: Subscribers.Completion<TestError>) -> Step {
        Step { state in
            "other \(completion): \(self.subscriptions.describe(downstream: self.downstream, state.otherCompleted(completion)))"
        }
    }

    private func request(_ demand: Subscribers.Demand) -> Step {
        Step { state in "request \(demand): to \(self.subscriptions(state.request(demand)))" }
    }

    private var cancel: Step {
        Step { state in self.subscriptions.describeCancel(downstream: self.downstream, state.cancel()) }
    }

    func testDemandBeforeTheSubscriptionIsHandedOverAndValuesWaitForALatest() {
        XCTAssertEqual(
            history([
                request(.max(2)), otherSubscribed("other"), request(.max(1)), upstreamSubscribed("upstream"),
                request(.max(3)), upstreamValue, otherValue("a"), upstreamValue, delivered, otherValue("b"),
                otherCompleted(.finished), upstreamValue, delivered, upstreamCompleted(.finished), upstreamValue,
                otherValue("c"), request(.max(1)),
            ]),
            [
                "request max(2): to nil -> downstream, upstream awaiting, other nil, latest none, pending max(2)",
                "other subscribed other: ask unlimited"
                    + " -> downstream, upstream awaiting, other other, latest none, pending max(2)",
                "request max(1): to nil -> downstream, upstream awaiting, other other, latest none, pending max(3)",
                "upstream subscribed upstream: ask max(3) -> downstream, upstream upstream, other other, latest none",
                "request max(3): to upstream -> downstream, upstream upstream, other other, latest none",
                "upstream value: replace -> downstream, upstream upstream, other other, latest none",
                "other value a -> downstream, upstream upstream, other other, latest a",
                "upstream value: deliver with a to downstream"
                    + " -> downstream, upstream upstream, other other, latest a, delivering 1",
                "delivered: goes on -> downstream, upstream upstream, other other, latest a",
                "other value b -> downstream, upstream upstream, other other, latest b",
                "other finished: goes on -> downstream, upstream upstream, other nil, latest b",
                "upstream value: deliver with b to downstream"
                    + " -> downstream, upstream upstream, other nil, latest b, delivering 1",
                "delivered: goes on -> downstream, upstream upstream, other nil, latest b",
                "upstream finished: cancel nil and nil, finished to downstream, let go of upstream"
                    + " -> released, upstream over, other nil, latest none",
                "upstream value: ignore -> released, upstream over, other nil, latest none",
                "other value c -> released, upstream over, other nil, latest none",
                "request max(1): to nil -> released, upstream over, other nil, latest none",
            ])
    }

    func testAnUpstreamCompletionCancelsOtherAndIsPassedOn() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), otherSubscribed("other"), otherValue("a"),
                upstreamCompleted(.failure(TestError(id: 1))), otherCompleted(.failure(TestError(id: 2))),
                upstreamCompleted(.finished),
            ]),
            [
                "upstream subscribed upstream: ask max(0) -> downstream, upstream upstream, other nil, latest none",
                "other subscribed other: ask unlimited -> downstream, upstream upstream, other other, latest none",
                "other value a -> downstream, upstream upstream, other other, latest a",
                "upstream failure(TestError(1)): cancel nil and other, failure(TestError(1)) to downstream,"
                    + " let go of upstream -> released, upstream over, other nil, latest none",
                "other failure(TestError(2)): goes on -> released, upstream over, other nil, latest none",
                "upstream finished: cancel nil and nil, finished to released, let go of nil"
                    + " -> released, upstream over, other nil, latest none",
            ])
    }

    func testOthersFailureDuringDeliveriesWaitsForTheLastOfThem() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), otherSubscribed("other"), otherValue("a"), upstreamValue,
                upstreamValue, otherCompleted(.failure(TestError(id: 1))), otherCompleted(.failure(TestError(id: 2))),
                delivered, delivered,
            ]),
            [
                "upstream subscribed upstream: ask max(0) -> downstream, upstream upstream, other nil, latest none",
                "other subscribed other: ask unlimited -> downstream, upstream upstream, other other, latest none",
                "other value a -> downstream, upstream upstream, other other, latest a",
                "upstream value: deliver with a to downstream"
                    + " -> downstream, upstream upstream, other other, latest a, delivering 1",
                "upstream value: deliver with a to downstream"
                    + " -> downstream, upstream upstream, other other, latest a, delivering 2",
                "other failure(TestError(1)): goes on"
                    + " -> downstream, upstream upstream, other other, latest a, delivering 2, pending TestError(1)",
                "other failure(TestError(2)): goes on"
                    + " -> downstream, upstream upstream, other other, latest a, delivering 2, pending TestError(1)",
                "delivered: goes on"
                    + " -> downstream, upstream upstream, other other, latest a, delivering 1, pending TestError(1)",
                "delivered: cancel upstream and other, failure(TestError(1)) to downstream"
                    + " -> released, upstream over, other nil, latest none",
            ])
    }

    func testOthersFailureCancelsTheUpstreamAndSubscriptionsNotAwaitedAreCancelled() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), upstreamSubscribed("stray"), otherSubscribed("other"),
                otherSubscribed("stray"), otherCompleted(.failure(TestError(id: 1))), upstreamSubscribed("stray"),
                otherSubscribed("stray"), upstreamValue, cancel,
            ]),
            [
                "upstream subscribed upstream: ask max(0) -> downstream, upstream upstream, other nil, latest none",
                "upstream subscribed stray: cancel it -> downstream, upstream upstream, other nil, latest none",
                "other subscribed other: ask unlimited -> downstream, upstream upstream, other other, latest none",
                "other subscribed stray: cancel it -> downstream, upstream upstream, other other, latest none",
                "other failure(TestError(1)): cancel upstream and nil, failure(TestError(1)) to downstream"
                    + " -> released, upstream over, other nil, latest none",
                "upstream subscribed stray: cancel it -> released, upstream over, other nil, latest none",
                "other subscribed stray: cancel it -> released, upstream over, other nil, latest none",
                "upstream value: ignore -> released, upstream over, other nil, latest none",
                "cancel: let go of released, cancel nil and nil -> released, upstream over, other nil, latest none",
            ])
    }

    func testCancelLetsEverythingGoBeforeOrAfterTheUpstreamSubscribed() {
        XCTAssertEqual(
            history([
                request(.max(1)), otherSubscribed("other"), otherValue("a"), cancel, upstreamSubscribed("upstream"),
            ]),
            [
                "request max(1): to nil -> downstream, upstream awaiting, other nil, latest none, pending max(1)",
                "other subscribed other: ask unlimited"
                    + " -> downstream, upstream awaiting, other other, latest none, pending max(1)",
                "other value a -> downstream, upstream awaiting, other other, latest a, pending max(1)",
                "cancel: let go of downstream, cancel nil and other"
                    + " -> released, upstream over, other nil, latest none, pending max(1)",
                "upstream subscribed upstream: cancel it"
                    + " -> released, upstream over, other nil, latest none, pending max(1)",
            ])
        XCTAssertEqual(
            history([upstreamSubscribed("upstream"), otherSubscribed("other"), cancel]),
            [
                "upstream subscribed upstream: ask max(0) -> downstream, upstream upstream, other nil, latest none",
                "other subscribed other: ask unlimited -> downstream, upstream upstream, other other, latest none",
                "cancel: let go of downstream, cancel upstream and other"
                    + " -> released, upstream over, other nil, latest none",
            ])
    }
}
