import Tether
@testable import TetherExtras
import TetherTesting
import XCTest

/// The state machine behind `materialize`, driven directly: no threads, no publishers. Each
/// scenario records what every event answered and where the state stood after it, and asserts
/// the whole history.
final class MaterializeStateTests: XCTestCase {
    private typealias State = MaterializeState<RecordingSubscriber<Int, Never>, TestError>
    private typealias Step = StateStep<State>

    private let downstream = RecordingSubscriber<Int, Never>()
    private let subscriptions = NamedSubscriptions("upstream", "stray")

    private func history(_ steps: [Step]) -> [String] {
        stateHistory(State(downstream: downstream), steps) { state in
            var words = [
                self.subscriptions.name(state.downstream, downstream: self.downstream),
                "upstream \(self.subscriptions.describe(state.upstream))", "demand \(state.demand)",
            ]
            if let completion = state.completion { words.append("waiting \(completion)") }
            return words.joined(separator: ", ")
        }
    }

    private func describe(_ action: State.Action) -> String {
        switch action {
        case .none: return "nothing"
        case .request(let subscription): return "request from \(subscriptions(subscription))"
        case .complete(let completion, let subscriber):
            return "\(completion) to \(subscriptions.name(subscriber, downstream: downstream))"
        }
    }

    private func upstreamSubscribed(_ name: String) -> Step {
        Step { state in
            let answer = state.upstreamSubscribed(self.subscriptions[name]).map {
                "hand over to \(self.subscriptions.name($0, downstream: self.downstream))"
            }
            return "upstream subscribed \(name): \(answer ?? "cancel it")"
        }
    }

    private var upstreamValue: Step {
        Step { state in
            "value: to \(state.upstreamValue().map { self.subscriptions.name($0, downstream: self.downstream) } ?? "nobody")"
        }
    }

    private func delivered(_ more: Subscribers.Demand) -> Step {
        Step { state in
            state.delivered(more)
            return "delivered, \(more) more"
        }
    }

    private func upstreamCompleted(_ completion: Subscribers.Completion<TestError>) -> Step {
        Step { state in "upstream \(completion): \(self.describe(state.upstreamCompleted(completion)))" }
    }

    private func request(_ demand: Subscribers.Demand) -> Step {
        Step { state in "request \(demand): \(self.describe(state.request(demand)))" }
    }

    private var cancel: Step {
        Step { state in
            let (upstream, released) = state.cancel()
            return "cancel: cancel \(self.subscriptions(upstream)), "
                + "let go of \(self.subscriptions.name(released, downstream: self.downstream))"
        }
    }

    func testDemandIsCountedAndACompletionWithDemandGoesOutAtOnce() {
        XCTAssertEqual(
            history([
                request(.max(1)), upstreamSubscribed("upstream"), request(.max(2)), upstreamValue, delivered(.max(1)),
                upstreamValue, delivered(.none), upstreamCompleted(.finished), request(.max(1)), upstreamValue,
                upstreamCompleted(.failure(TestError(id: 1))),
            ]),
            [
                "request max(1): nothing -> downstream, upstream awaiting, demand max(1)",
                "upstream subscribed upstream: hand over to downstream -> downstream, upstream upstream, demand max(1)",
                "request max(2): request from upstream -> downstream, upstream upstream, demand max(3)",
                "value: to downstream -> downstream, upstream upstream, demand max(2)",
                "delivered, max(1) more -> downstream, upstream upstream, demand max(3)",
                "value: to downstream -> downstream, upstream upstream, demand max(2)",
                "delivered, max(0) more -> downstream, upstream upstream, demand max(2)",
                "upstream finished: finished to downstream -> released, upstream over, demand max(2)",
                "request max(1): nothing -> released, upstream over, demand max(2)",
                "value: to nobody -> released, upstream over, demand max(2)",
                "upstream failure(TestError(1)): nothing -> released, upstream over, demand max(2)",
            ])
    }

    func testACompletionWithoutDemandWaitsForTheNextRequest() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), upstreamValue, delivered(.none),
                upstreamCompleted(.failure(TestError(id: 1))), upstreamValue, upstreamCompleted(.finished),
                upstreamSubscribed("stray"), request(.max(2)), request(.max(1)),
            ]),
            [
                "upstream subscribed upstream: hand over to downstream -> downstream, upstream upstream, demand max(0)",
                // A value beyond demand is delivered, and counts nothing.
                "value: to downstream -> downstream, upstream upstream, demand max(0)",
                "delivered, max(0) more -> downstream, upstream upstream, demand max(0)",
                "upstream failure(TestError(1)): nothing"
                    + " -> downstream, upstream over, demand max(0), waiting failure(TestError(1))",
                "value: to nobody -> downstream, upstream over, demand max(0), waiting failure(TestError(1))",
                "upstream finished: nothing -> downstream, upstream over, demand max(0), waiting failure(TestError(1))",
                "upstream subscribed stray: cancel it"
                    + " -> downstream, upstream over, demand max(0), waiting failure(TestError(1))",
                "request max(2): failure(TestError(1)) to downstream -> released, upstream over, demand max(0)",
                "request max(1): nothing -> released, upstream over, demand max(0)",
            ])
    }

    func testCancelLetsGoOfAWaitingCompletionAndLaterSignalsAreInert() {
        XCTAssertEqual(
            history([
                upstreamSubscribed("upstream"), upstreamSubscribed("stray"), upstreamCompleted(.finished), cancel,
                request(.max(1)), cancel,
            ]),
            [
                "upstream subscribed upstream: hand over to downstream -> downstream, upstream upstream, demand max(0)",
                "upstream subscribed stray: cancel it -> downstream, upstream upstream, demand max(0)",
                "upstream finished: nothing -> downstream, upstream over, demand max(0), waiting finished",
                "cancel: cancel nil, let go of downstream -> released, upstream over, demand max(0)",
                "request max(1): nothing -> released, upstream over, demand max(0)",
                "cancel: cancel nil, let go of released -> released, upstream over, demand max(0)",
            ])
        XCTAssertEqual(
            history([cancel, upstreamSubscribed("upstream")]),
            [
                "cancel: cancel nil, let go of downstream -> released, upstream over, demand max(0)",
                "upstream subscribed upstream: cancel it -> released, upstream over, demand max(0)",
            ])
        XCTAssertEqual(
            history([upstreamSubscribed("upstream"), request(.max(1)), cancel, upstreamValue]),
            [
                "upstream subscribed upstream: hand over to downstream -> downstream, upstream upstream, demand max(0)",
                "request max(1): request from upstream -> downstream, upstream upstream, demand max(1)",
                "cancel: cancel upstream, let go of downstream -> released, upstream over, demand max(1)",
                "value: to nobody -> released, upstream over, demand max(1)",
            ])
    }
}
