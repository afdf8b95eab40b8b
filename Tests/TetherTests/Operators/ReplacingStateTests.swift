@testable import TetherCore
import TetherTesting
import XCTest

/// The state `replaceEmpty` and `replaceError` share, driven directly: each scenario records what
/// every event answered and where the state stood after it, and asserts the whole history.
final class ReplacingStateTests: XCTestCase {
    private typealias Step = StateStep<ReplacingState>

    private let subscriptions = NamedSubscriptions("upstream", "stray")
    private var upstream: RecordingSubscription { subscriptions["upstream"] }
    private var stray: RecordingSubscription { subscriptions["stray"] }

    /// Where the state stands, in words, with the subscriptions named.
    private func describe(_ state: ReplacingState) -> String {
        "\(subscriptions.status(state.upstream))\(state.parked ? " parked" : "") outstanding \(state.outstanding)"
    }

    private func attach(_ subscription: RecordingSubscription) -> Step {
        Step { "attach \(self.subscriptions.name(subscription)): \($0.attach(subscription))" }
    }

    private func request(_ demand: Subscribers.Demand) -> Step {
        Step { state in
            switch state.request(demand) {
            case .nothing: "request \(demand): nothing"
            case .forward(let upstream): "request \(demand): forward to \(self.subscriptions.name(upstream))"
            case .substitute: "request \(demand): substitute"
            }
        }
    }

    /// A value that uses up a unit of demand; the downstream returns `more` for it.
    private func value(returning more: Subscribers.Demand = .none) -> Step {
        Step { state in
            state.value(trapsWithoutDemand: false, name: "Test")
            if more > 0 { state.returned(more) }
            return "value, returning \(more)"
        }
    }

    private func complete(substituting: Bool) -> Step {
        Step { "complete \(substituting ? "substituting" : "forwarding"): \($0.complete(substituting: substituting))" }
    }

    private var cancel: Step {
        Step { state in
            switch state.cancel() {
            case .ignore: "cancel: ignore"
            case .end(let upstream): "cancel: end, cancel \(self.subscriptions.name(upstream))"
            }
        }
    }

    private func history(_ steps: [Step]) -> [String] {
        stateHistory(ReplacingState(), steps, describe: describe)
    }

    func testASubstituteWithoutDemandParksUntilTheNextRequest() {
        XCTAssertEqual(
            history([
                attach(upstream), request(.max(1)), value(), complete(substituting: true), request(.max(2)),
                request(.max(1)), cancel,
            ]),
            [
                "attach upstream: true -> subscribed(upstream) outstanding max(0)",
                "request max(1): forward to upstream -> subscribed(upstream) outstanding max(1)",
                "value, returning max(0) -> subscribed(upstream) outstanding max(0)",
                "complete substituting: park -> terminal parked outstanding max(0)",
                "request max(2): substitute -> terminal outstanding max(2)",
                "request max(1): nothing -> terminal outstanding max(3)",
                "cancel: end, cancel nil -> terminal outstanding max(3)",
            ])
    }

    func testASubstituteWithDemandOutstandingEndsAtOnce() {
        XCTAssertEqual(
            history([
                attach(upstream), request(.max(1)), value(returning: .max(1)), complete(substituting: true),
                complete(substituting: true), request(.max(1)),
            ]),
            [
                "attach upstream: true -> subscribed(upstream) outstanding max(0)",
                "request max(1): forward to upstream -> subscribed(upstream) outstanding max(1)",
                "value, returning max(1) -> subscribed(upstream) outstanding max(1)",
                "complete substituting: end -> terminal outstanding max(1)",
                "complete substituting: nothing -> terminal outstanding max(1)",
                "request max(1): nothing -> terminal outstanding max(2)",
            ])
    }

    func testAForwardedCompletionNeedsNoDemandAndAValueBeyondTheDemandCountsNothing() {
        XCTAssertEqual(
            history([attach(upstream), value(), request(.unlimited), value(), complete(substituting: false)]),
            [
                "attach upstream: true -> subscribed(upstream) outstanding max(0)",
                "value, returning max(0) -> subscribed(upstream) outstanding max(0)",
                "request unlimited: forward to upstream -> subscribed(upstream) outstanding unlimited",
                "value, returning max(0) -> subscribed(upstream) outstanding unlimited",
                "complete forwarding: end -> terminal outstanding unlimited",
            ])
    }

    func testEverythingBeforeTheSubscriptionIsIgnoredButTheDemandIsCounted() {
        XCTAssertEqual(
            history([
                cancel, request(.max(2)), complete(substituting: true), attach(upstream), attach(stray),
                complete(substituting: true),
            ]),
            [
                "cancel: ignore -> awaiting outstanding max(0)",
                "request max(2): nothing -> awaiting outstanding max(2)",
                "complete substituting: nothing -> awaiting outstanding max(2)",
                "attach upstream: true -> subscribed(upstream) outstanding max(2)",
                "attach stray: false -> subscribed(upstream) outstanding max(2)",
                "complete substituting: end -> terminal outstanding max(2)",
            ])
    }

    func testACancelEndsTheStreamAndDropsAParkedSubstitute() {
        XCTAssertEqual(
            history([attach(upstream), cancel, complete(substituting: false), cancel, attach(stray)]),
            [
                "attach upstream: true -> subscribed(upstream) outstanding max(0)",
                "cancel: end, cancel upstream -> terminal outstanding max(0)",
                "complete forwarding: nothing -> terminal outstanding max(0)",
                "cancel: end, cancel nil -> terminal outstanding max(0)",
                "attach stray: false -> terminal outstanding max(0)",
            ])
        XCTAssertEqual(
            history([attach(upstream), complete(substituting: true), cancel, request(.max(1))]),
            [
                "attach upstream: true -> subscribed(upstream) outstanding max(0)",
                "complete substituting: park -> terminal parked outstanding max(0)",
                "cancel: end, cancel nil -> terminal outstanding max(0)",
                "request max(1): nothing -> terminal outstanding max(1)",
            ])
    }
}
