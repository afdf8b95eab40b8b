@testable import TetherCore
import TetherTesting
import XCTest

/// The reducers' state driven directly: each scenario records what every event answered and
/// where the state stood after it, and asserts the whole history.
final class ReducerStateTests: XCTestCase {
    private typealias State = ReducerState<Int>

    private typealias Step = StateStep<State>

    private let subscriptions = NamedSubscriptions("upstream", "stray")
    private var upstream: RecordingSubscription { subscriptions["upstream"] }
    private var stray: RecordingSubscription { subscriptions["stray"] }

    private func name(_ subscription: (any Subscription)?) -> String {
        subscriptions.name(subscription)
    }

    private func describe(_ result: Int?) -> String {
        result.map { "\($0)" } ?? "nil"
    }

    /// Where the state stands, in words, with the subscriptions named.
    private func describe(_ state: State) -> String {
        let parked = state.parked.map { "parked(\(describe($0)))" } ?? "not parked"
        return "\(subscriptions.status(state.upstream)) requested \(state.requested) \(parked)"
    }

    private func describe(_ action: State.Action) -> String {
        switch action {
        case .nothing: "nothing"
        case .park(let cancel): "park, cancel \(name(cancel))"
        case .finish(let result, let cancel): "finish with \(describe(result)), cancel \(name(cancel))"
        case .fail(let cancel): "fail, cancel \(name(cancel))"
        }
    }

    private func attach(_ subscription: RecordingSubscription) -> Step {
        Step { "attach \(self.name(subscription)): \($0.attach(subscription))" }
    }

    private func end(_ ending: State.Ending, result: Int?) -> Step {
        Step { "end \(ending) with \(self.describe(result)): \(self.describe($0.end(ending, result: result)))" }
    }

    private var request: Step {
        Step { state in
            switch state.request() {
            case .some(let result): "request: finish with \(self.describe(result))"
            case .none: "request: nothing"
            }
        }
    }

    private var cancel: Step {
        Step { state in
            guard let cancellation = state.cancel() else { return "cancel: ignored" }
            let parked = cancellation.parked.map { "parked(\(self.describe($0)))" } ?? "no parked result"
            return "cancel: upstream \(self.name(cancellation.upstream)), drops \(parked)"
        }
    }

    /// Runs `steps` on a new state: each answer, then where the state stood.
    private func history(_ steps: [Step]) -> [String] {
        stateHistory(State(initial: nil), steps, describe: describe)
    }

    func testAFinishBeforeAnyRequestParksTheResultUntilTheFirstRequest() {
        XCTAssertEqual(
            history([attach(upstream), end(.upstreamFinished, result: 6), request, request, cancel]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "end upstreamFinished with 6: park, cancel nil -> terminal requested false parked(6)",
                "request: finish with 6 -> terminal requested false not parked",
                "request: nothing -> terminal requested false not parked",
                "cancel: upstream nil, drops no parked result -> terminal requested false not parked",
            ])
    }

    func testAFinishAfterARequestGoesDownAtOnceAndAnEmptyResultStillFinishes() {
        XCTAssertEqual(
            history([attach(upstream), request, request, end(.upstreamFinished, result: nil), request]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "request: nothing -> subscribed(upstream) requested true not parked",
                "request: nothing -> subscribed(upstream) requested true not parked",
                "end upstreamFinished with nil: finish with nil, cancel nil -> terminal requested true not parked",
                "request: nothing -> terminal requested true not parked",
            ])
    }

    func testASettledResultCancelsTheUpstreamAndParksOrFinishesLikeAFinish() {
        XCTAssertEqual(
            history([attach(upstream), end(.settled, result: 1), request]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "end settled with 1: park, cancel upstream -> terminal requested false parked(1)",
                "request: finish with 1 -> terminal requested false not parked",
            ])
        XCTAssertEqual(
            history([attach(upstream), request, end(.settled, result: 1)]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "request: nothing -> subscribed(upstream) requested true not parked",
                "end settled with 1: finish with 1, cancel upstream -> terminal requested true not parked",
            ])
    }

    func testFailuresNeedNoDemandAndOnlyAThrowingStepCancelsTheUpstream() {
        XCTAssertEqual(
            history([attach(upstream), end(.upstreamFailed, result: 2), end(.upstreamFinished, result: 2), request]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "end upstreamFailed with 2: fail, cancel nil -> terminal requested false not parked",
                "end upstreamFinished with 2: nothing -> terminal requested false not parked",
                "request: nothing -> terminal requested false not parked",
            ])
        XCTAssertEqual(
            history([attach(upstream), end(.stepThrew, result: 2), end(.stepThrew, result: 2)]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "end stepThrew with 2: fail, cancel upstream -> terminal requested false not parked",
                "end stepThrew with 2: nothing -> terminal requested false not parked",
            ])
    }

    func testEverythingBeforeTheSubscriptionIsIgnoredAndASecondSubscriptionIsRefused() {
        XCTAssertEqual(
            history([
                cancel, request, end(.upstreamFinished, result: 3), end(.upstreamFailed, result: 3), attach(upstream),
                attach(stray),
            ]),
            [
                "cancel: ignored -> awaiting requested false not parked",
                "request: nothing -> awaiting requested false not parked",
                "end upstreamFinished with 3: nothing -> awaiting requested false not parked",
                "end upstreamFailed with 3: nothing -> awaiting requested false not parked",
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "attach stray: false -> subscribed(upstream) requested false not parked",
            ])
    }

    func testACancelEndsTheStreamAndDropsAParkedResult() {
        XCTAssertEqual(
            history([attach(upstream), cancel, end(.upstreamFinished, result: 4), request, cancel, attach(stray)]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "cancel: upstream upstream, drops no parked result -> terminal requested false not parked",
                "end upstreamFinished with 4: nothing -> terminal requested false not parked",
                "request: nothing -> terminal requested false not parked",
                "cancel: upstream nil, drops no parked result -> terminal requested false not parked",
                "attach stray: false -> terminal requested false not parked",
            ])
        XCTAssertEqual(
            history([attach(upstream), end(.upstreamFinished, result: nil), cancel, request]),
            [
                "attach upstream: true -> subscribed(upstream) requested false not parked",
                "end upstreamFinished with nil: park, cancel nil -> terminal requested false parked(nil)",
                "cancel: upstream nil, drops parked(nil) -> terminal requested false not parked",
                "request: nothing -> terminal requested false not parked",
            ])
    }
}
