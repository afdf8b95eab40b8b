import TetherCore
import TetherTesting
import XCTest

@testable import TetherExtras

/// The race behind `amb`, driven directly: each scenario records what every event answered and
/// where the race stood after it, and asserts the whole history.
final class AmbStateTests: XCTestCase {
    private let subscriptions = [RecordingSubscription(), RecordingSubscription(), RecordingSubscription()]

    private func name(_ subscription: any Subscription) -> String {
        guard let index = subscriptions.firstIndex(where: { $0 === (subscription as AnyObject) }) else { return "?" }
        return "s\(index)"
    }

    private func names(_ subscriptions: [any Subscription]?) -> String {
        guard let subscriptions else { return "nil" }
        return "[" + subscriptions.map(name).joined(separator: ", ") + "]"
    }

    private func describe(_ state: AmbState) -> String {
        let competitors = state.competitors.map { competitor -> String in
            switch competitor {
            case .awaitingSubscription: "waiting"
            case .active(let subscription): name(subscription)
            case .done: "done"
            }
        }
        let winner = state.winner.map(String.init) ?? "none"
        return "[\(competitors.joined(separator: " "))] winner \(winner) over \(state.over) demand \(state.demand)"
    }

    private typealias Event = (String, (inout AmbState) -> String)

    private func history(_ events: [Event]) -> [String] {
        var state = AmbState(competitors: 3)
        return events.map { label, event in
            let answer = event(&state)
            return "\(label): \(answer) -> \(describe(state))"
        }
    }

    private func attach(_ index: Int) -> Event {
        ("attach \(index)", { "\($0.attach(self.subscriptions[index], at: index).map { "ask \($0)" } ?? "cancel it")" })
    }

    private func claim(_ index: Int) -> Event {
        (
            "value from \(index)",
            { state in
                switch state.claim(index) {
                case .drop: "drop"
                case .deliver: "deliver"
                case .won(let losers): "won, cancel \(self.names(losers))"
                }
            }
        )
    }

    private func complete(_ index: Int) -> Event {
        ("completion from \(index)", { "cancel \(self.names($0.complete(index)))" })
    }

    private func request(_ demand: Subscribers.Demand) -> Event {
        ("request \(demand)", { "ask \(self.names($0.request(demand)))" })
    }

    private let cancel: Event = ("cancel", { state in "cancel \(AmbStateTests.anyNames(state.cancel()))" })

    private static func anyNames(_ subscriptions: [any Subscription]?) -> String {
        guard let subscriptions else { return "nil" }
        return "\(subscriptions.count) subscriptions"
    }

    func testTheFirstValueWinsAndLaterCompetitorsAreAskedForTheDemandSoFar() {
        XCTAssertEqual(
            history([
                attach(0), request(.max(2)), attach(1), request(.max(1)), claim(1), attach(2), claim(0), claim(1),
                request(.max(5)),
            ]),
            [
                "attach 0: ask max(0) -> [s0 waiting waiting] winner none over false demand max(0)",
                "request max(2): ask [s0] -> [s0 waiting waiting] winner none over false demand max(2)",
                "attach 1: ask max(2) -> [s0 s1 waiting] winner none over false demand max(2)",
                "request max(1): ask [s0, s1] -> [s0 s1 waiting] winner none over false demand max(3)",
                "value from 1: won, cancel [s0] -> [done s1 done] winner 1 over false demand max(3)",
                "attach 2: cancel it -> [done s1 done] winner 1 over false demand max(3)",
                "value from 0: drop -> [done s1 done] winner 1 over false demand max(3)",
                "value from 1: deliver -> [done s1 done] winner 1 over false demand max(3)",
                "request max(5): ask [s1] -> [done s1 done] winner 1 over false demand max(3)",
            ])
    }

    func testACompletionWinsLikeAValueAndEndsTheRace() {
        XCTAssertEqual(
            history([attach(0), attach(2), complete(2), claim(0), complete(0), request(.max(1)), cancel]),
            [
                "attach 0: ask max(0) -> [s0 waiting waiting] winner none over false demand max(0)",
                "attach 2: ask max(0) -> [s0 waiting s2] winner none over false demand max(0)",
                "completion from 2: cancel [s0] -> [] winner 2 over true demand max(0)",
                "value from 0: drop -> [] winner 2 over true demand max(0)",
                "completion from 0: cancel nil -> [] winner 2 over true demand max(0)",
                "request max(1): ask [] -> [] winner 2 over true demand max(0)",
                "cancel: cancel nil -> [] winner 2 over true demand max(0)",
            ])
    }

    func testTheWinnersCompletionEndsTheRaceWithNothingToCancel() {
        XCTAssertEqual(
            history([attach(0), attach(1), claim(0), complete(0), attach(1)]),
            [
                "attach 0: ask max(0) -> [s0 waiting waiting] winner none over false demand max(0)",
                "attach 1: ask max(0) -> [s0 s1 waiting] winner none over false demand max(0)",
                "value from 0: won, cancel [s1] -> [s0 done done] winner 0 over false demand max(0)",
                "completion from 0: cancel [] -> [] winner 0 over true demand max(0)",
                "attach 1: cancel it -> [] winner 0 over true demand max(0)",
            ])
    }

    func testACancelReturnsEverySubscriptionHeldOnce() {
        XCTAssertEqual(
            history([attach(0), attach(1), cancel, cancel, claim(0)]),
            [
                "attach 0: ask max(0) -> [s0 waiting waiting] winner none over false demand max(0)",
                "attach 1: ask max(0) -> [s0 s1 waiting] winner none over false demand max(0)",
                "cancel: cancel 2 subscriptions -> [] winner none over true demand max(0)",
                "cancel: cancel nil -> [] winner none over true demand max(0)",
                "value from 0: drop -> [] winner none over true demand max(0)",
            ])
        var state = AmbState(competitors: 2)
        XCTAssertTrue(state.isOpen)
        _ = state.claim(1)
        XCTAssertFalse(state.isOpen)
    }
}
