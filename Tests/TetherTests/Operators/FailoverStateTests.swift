@testable import TetherCore
import TetherTesting
import XCTest

/// The state of `switchIfEmpty` and the delayed retry, driven directly: each scenario records
/// what every event answered and where the state stood after it, and asserts the whole history.
final class FailoverStateTests: XCTestCase {
    private typealias Step = StateStep<FailoverState>

    private let subscriptions = NamedSubscriptions("first", "second", "stray")
    private var first: RecordingSubscription { subscriptions["first"] }
    private var second: RecordingSubscription { subscriptions["second"] }
    private var stray: RecordingSubscription { subscriptions["stray"] }

    private func name(_ subscription: (any Subscription)?) -> String {
        subscriptions.name(subscription)
    }

    /// Where the state stands, in words, with the subscriptions named.
    private func describe(_ state: FailoverState) -> String {
        let link =
            switch state.link {
            case .awaitingSubscription: "awaiting"
            case .subscribed(let source): "subscribed(\(name(source)))"
            case .switching: "switching"
            case .terminal: "terminal"
            }
        return "\(link) outstanding \(state.outstanding)"
    }

    private func attach(_ subscription: RecordingSubscription) -> Step {
        Step { state in
            let answer =
                switch state.attach(subscription) {
                case .refuse: "refuse"
                case .first: "first"
                case .next(let demand): "next, ask \(demand)"
                }
            return "attach \(self.name(subscription)): \(answer)"
        }
    }

    private func finish() -> Step {
        Step { "finish: \($0.finish())" }
    }

    private func beginSwitch(used: Int, returned: Subscribers.Demand) -> Step {
        Step { "beginSwitch used \(used) returned \(returned): \($0.beginSwitch(used: used, returned: returned))" }
    }

    private func request(_ demand: Subscribers.Demand) -> Step {
        Step { "request \(demand): to \(self.name($0.request(demand)))" }
    }

    private var cancel: Step {
        Step { state in
            switch state.cancel() {
            case .nothing: "cancel: nothing"
            case .stop(let source): "cancel: stop, cancel \(self.name(source))"
            }
        }
    }

    private func history(_ steps: [Step]) -> [String] {
        stateHistory(FailoverState(), steps, describe: describe)
    }

    func testTheNextSourceIsAskedForWhatTheFailedOneLeftUnmet() {
        XCTAssertEqual(
            history([
                attach(first), request(.max(5)), beginSwitch(used: 3, returned: .max(1)), request(.max(2)),
                attach(second), request(.max(1)), finish(), finish(),
            ]),
            [
                "attach first: first -> subscribed(first) outstanding max(0)",
                "request max(5): to first -> subscribed(first) outstanding max(5)",
                "beginSwitch used 3 returned max(1): true -> switching outstanding max(3)",
                "request max(2): to nil -> switching outstanding max(5)",
                "attach second: next, ask max(5) -> subscribed(second) outstanding max(5)",
                "request max(1): to second -> subscribed(second) outstanding max(6)",
                "finish: true -> terminal outstanding max(6)",
                "finish: false -> terminal outstanding max(6)",
            ])
    }

    func testSubscriptionsThatAreNotAwaitedAreRefused() {
        XCTAssertEqual(
            history([
                attach(first), attach(stray), beginSwitch(used: 0, returned: .none),
                beginSwitch(used: 0, returned: .none), attach(second), attach(stray), finish(), attach(stray),
            ]),
            [
                "attach first: first -> subscribed(first) outstanding max(0)",
                "attach stray: refuse -> subscribed(first) outstanding max(0)",
                "beginSwitch used 0 returned max(0): true -> switching outstanding max(0)",
                "beginSwitch used 0 returned max(0): false -> switching outstanding max(0)",
                "attach second: next, ask max(0) -> subscribed(second) outstanding max(0)",
                "attach stray: refuse -> subscribed(second) outstanding max(0)",
                "finish: true -> terminal outstanding max(0)",
                "attach stray: refuse -> terminal outstanding max(0)",
            ])
    }

    func testAnEarlyCompletionIsIgnoredAndAnEarlyRequestIsNotCounted() {
        XCTAssertEqual(
            history([request(.max(1)), finish(), beginSwitch(used: 0, returned: .none), attach(first)]),
            [
                "request max(1): to nil -> awaiting outstanding max(0)",
                "finish: false -> awaiting outstanding max(0)",
                "beginSwitch used 0 returned max(0): false -> awaiting outstanding max(0)",
                "attach first: first -> subscribed(first) outstanding max(0)",
            ])
    }

    func testACancelEndsTheStreamWhereverItStands() {
        XCTAssertEqual(
            history([cancel, attach(first), request(.max(1)), cancel]),
            [
                "cancel: nothing -> terminal outstanding max(0)",
                "attach first: refuse -> terminal outstanding max(0)",
                "request max(1): to nil -> terminal outstanding max(0)",
                "cancel: nothing -> terminal outstanding max(0)",
            ])
        XCTAssertEqual(
            history([attach(first), cancel, finish(), beginSwitch(used: 0, returned: .none)]),
            [
                "attach first: first -> subscribed(first) outstanding max(0)",
                "cancel: stop, cancel first -> terminal outstanding max(0)",
                "finish: false -> terminal outstanding max(0)",
                "beginSwitch used 0 returned max(0): false -> terminal outstanding max(0)",
            ])
        XCTAssertEqual(
            history([attach(first), beginSwitch(used: 0, returned: .none), cancel, attach(second)]),
            [
                "attach first: first -> subscribed(first) outstanding max(0)",
                "beginSwitch used 0 returned max(0): true -> switching outstanding max(0)",
                "cancel: stop, cancel nil -> terminal outstanding max(0)",
                "attach second: refuse -> terminal outstanding max(0)",
            ])
    }
}
