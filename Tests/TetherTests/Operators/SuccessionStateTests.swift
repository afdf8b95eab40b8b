@testable import TetherCore
import TetherTesting
import XCTest

/// The state concatenation and catch share, driven directly: each scenario records what every
/// step answered and where the state stood after it, and asserts the whole history.
final class SuccessionStateTests: XCTestCase {
    private let first = RecordingSubscription()
    private let second = RecordingSubscription()
    private let stray = RecordingSubscription()

    /// Where the state stands, in words, with the subscriptions named.
    private func describe(_ state: SuccessionState) -> String {
        let link: String
        switch state.status {
        case .awaitingFirst: link = "awaitingFirst"
        case .first: link = "first(\(name(state.current)))"
        case .awaitingSecond: link = "awaitingSecond"
        case .second: link = "second(\(name(state.current)))"
        case .over: link = "over"
        }
        // A subscription kept where no source is current would be held for nothing.
        switch state.status {
        case .first, .second:
            return "\(link) unmet \(state.unmet)"
        case .awaitingFirst, .awaitingSecond, .over:
            let held = state.current is UnattachedSubscription ? "" : " holding \(name(state.current))"
            return "\(link)\(held) unmet \(state.unmet)"
        }
    }

    private func name(_ subscription: (any Subscription)?) -> String {
        // The stand-in a slot holds without a subscription, which ignores requests and cancels.
        guard let subscription, !(subscription is UnattachedSubscription) else { return "nil" }
        guard let subscription = subscription as? RecordingSubscription else { return "other" }
        if subscription === first { return "first" }
        if subscription === second { return "second" }
        if subscription === stray { return "stray" }
        return "other"
    }

    private func attach(_ subscription: RecordingSubscription, _ source: SuccessionState.Source) -> Step {
        Step { state in
            let answer = state.attach(subscription, from: source).map { "ask \($0)" } ?? "cancel it"
            return "attach \(self.name(subscription)) as \(source): \(answer)"
        }
    }

    private func request(_ demand: Subscribers.Demand) -> Step {
        Step { state in "request \(demand): to \(self.name(state.request(demand)))" }
    }

    private let meetOne = Step { state in "meetOne: \(state.meetOne())" }

    private var stop: Step {
        Step { state in
            let (link, current) = state.stop()
            return "stop: was \(link), cancel \(self.name(current))"
        }
    }

    private func end(_ source: SuccessionState.Source, handingOver: Bool) -> Step {
        Step { state in "end \(source) handingOver \(handingOver): \(state.end(source, handingOver: handingOver))" }
    }

    /// One event and what the state answered.
    private struct Step {
        let run: (inout SuccessionState) -> String
    }

    /// Runs `steps` on a new state: each answer, then where the state stood.
    private func history(_ steps: [Step]) -> [String] {
        var state = SuccessionState()
        return steps.map { step in
            let answer = step.run(&state)
            return "\(answer) -> \(describe(state))"
        }
    }

    func testTheSecondSourceIsAskedForWhatTheFirstLeftUnmet() {
        XCTAssertEqual(
            history([
                attach(first, .first), request(.max(3)), meetOne, request(.max(1)),
                end(.first, handingOver: true), request(.max(2)), attach(second, .second), request(.max(5)),
                meetOne, end(.second, handingOver: false),
            ]),
            [
                "attach first as first: ask max(0) -> first(first) unmet max(0)",
                "request max(3): to first -> first(first) unmet max(3)",
                "meetOne: true -> first(first) unmet max(2)",
                "request max(1): to first -> first(first) unmet max(3)",
                "end first handingOver true: true -> awaitingSecond unmet max(3)",
                "request max(2): to nil -> awaitingSecond unmet max(5)",
                "attach second as second: ask max(5) -> second(second) unmet max(5)",
                "request max(5): to second -> second(second) unmet max(5)",
                "meetOne: true -> second(second) unmet max(4)",
                "end second handingOver false: true -> over unmet max(4)",
            ])
    }

    func testAValueBeyondTheDemandIsNotCounted() {
        XCTAssertEqual(
            history([attach(first, .first), meetOne, request(.max(1)), meetOne, meetOne]),
            [
                "attach first as first: ask max(0) -> first(first) unmet max(0)",
                "meetOne: false -> first(first) unmet max(0)",
                "request max(1): to first -> first(first) unmet max(1)",
                "meetOne: true -> first(first) unmet max(0)",
                "meetOne: false -> first(first) unmet max(0)",
            ])
    }

    func testSubscriptionsThatAreNotAwaitedAreCancelled() {
        XCTAssertEqual(
            history([
                attach(stray, .second), attach(first, .first), attach(stray, .first), attach(stray, .second),
                end(.first, handingOver: true), attach(stray, .first), attach(second, .second),
                attach(stray, .second),
            ]),
            [
                "attach stray as second: cancel it -> awaitingFirst unmet max(0)",
                "attach first as first: ask max(0) -> first(first) unmet max(0)",
                "attach stray as first: cancel it -> first(first) unmet max(0)",
                "attach stray as second: cancel it -> first(first) unmet max(0)",
                "end first handingOver true: true -> awaitingSecond unmet max(0)",
                "attach stray as first: cancel it -> awaitingSecond unmet max(0)",
                "attach second as second: ask max(0) -> second(second) unmet max(0)",
                "attach stray as second: cancel it -> second(second) unmet max(0)",
            ])
    }

    func testStoppingHandsOutTheCurrentSubscriptionOnceFromAnyLink() {
        XCTAssertEqual(
            history([
                stop, attach(first, .first),
            ]),
            [
                "stop: was awaitingFirst, cancel nil -> over unmet max(0)",
                "attach first as first: cancel it -> over unmet max(0)",
            ])
        XCTAssertEqual(
            history([
                attach(first, .first), request(.max(2)), stop, stop, request(.max(1)),
            ]),
            [
                "attach first as first: ask max(0) -> first(first) unmet max(0)",
                "request max(2): to first -> first(first) unmet max(2)",
                "stop: was first, cancel first -> over unmet max(2)",
                "stop: was over, cancel nil -> over unmet max(2)",
                "request max(1): to nil -> over unmet max(2)",
            ])
        XCTAssertEqual(
            history([
                attach(first, .first), end(.first, handingOver: true), stop, attach(second, .second),
            ]),
            [
                "attach first as first: ask max(0) -> first(first) unmet max(0)",
                "end first handingOver true: true -> awaitingSecond unmet max(0)",
                "stop: was awaitingSecond, cancel nil -> over unmet max(0)",
                "attach second as second: cancel it -> over unmet max(0)",
            ])
        XCTAssertEqual(
            history([
                attach(first, .first), end(.first, handingOver: true), attach(second, .second), stop,
            ]),
            [
                "attach first as first: ask max(0) -> first(first) unmet max(0)",
                "end first handingOver true: true -> awaitingSecond unmet max(0)",
                "attach second as second: ask max(0) -> second(second) unmet max(0)",
                "stop: was second, cancel second -> over unmet max(0)",
            ])
    }

    func testEndingWithoutHandingOverIsOverAndLaterEventsChangeNothing() {
        XCTAssertEqual(
            history([
                request(.max(1)), attach(first, .first), end(.second, handingOver: false),
                end(.first, handingOver: false), end(.first, handingOver: true), request(.unlimited),
                attach(second, .second),
            ]),
            [
                "request max(1): to nil -> awaitingFirst unmet max(0)",
                "attach first as first: ask max(0) -> first(first) unmet max(0)",
                "end second handingOver false: false -> first(first) unmet max(0)",
                "end first handingOver false: true -> over unmet max(0)",
                "end first handingOver true: false -> over unmet max(0)",
                "request unlimited: to nil -> over unmet max(0)",
                "attach second as second: cancel it -> over unmet max(0)",
            ])
    }
}
