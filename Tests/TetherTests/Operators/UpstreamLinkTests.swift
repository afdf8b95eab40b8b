@testable import TetherCore
import TetherTesting
import XCTest

/// The subscription kernel driven directly, on one thread: each scenario records what every call
/// answered and where the status stood after it, and asserts the whole history.
final class UpstreamLinkTests: XCTestCase {
    private let first = RecordingSubscription()
    private let second = RecordingSubscription()

    private func name(_ subscription: (any Subscription)?) -> String {
        guard let subscription = subscription as? RecordingSubscription else { return "nil" }
        if subscription === first { return "first" }
        if subscription === second { return "second" }
        return "other"
    }

    private func describe(_ status: UpstreamStatus) -> String {
        switch status {
        case .awaitingSubscription: "awaiting"
        case .subscribed(let subscription): "subscribed(\(name(subscription)))"
        case .terminal: "terminal"
        }
    }

    /// Runs `calls` in order against one link, each answering in words, and returns every answer
    /// followed by the status it left.
    private func history(_ calls: [(String, (borrowing UpstreamLink) -> String)]) -> [String] {
        let link = UpstreamLink()
        return calls.map { label, call in
            let answer = call(link)
            return "\(label): \(answer) -> \(describe(link.current))"
        }
    }

    private func accept(_ subscription: RecordingSubscription) -> (String, (borrowing UpstreamLink) -> String) {
        ("accept \(name(subscription))", { "\($0.accept(subscription))" })
    }

    private func cancel(evenBeforeSubscription: Bool) -> (String, (borrowing UpstreamLink) -> String) {
        (
            evenBeforeSubscription ? "cancel, ending early" : "cancel",
            { link in
                var releasesNow = false
                let upstream = link.cancel(evenBeforeSubscription: evenBeforeSubscription) { releasesNow = true }
                return "upstream \(self.name(upstream)), releases now \(releasesNow)"
            }
        )
    }

    private let leave: (String, (borrowing UpstreamLink) -> String) = ("leave", { "\($0.handOff.leave())" })
    private let enter: (String, (borrowing UpstreamLink) -> String) = ("enter", { "\($0.handOff.enter("Test"))" })

    func testASecondSubscriptionIsRefusedAndACancelOutsideADeliveryReleasesAtOnce() {
        XCTAssertEqual(
            history([
                accept(first), leave, accept(second), cancel(evenBeforeSubscription: false),
                cancel(evenBeforeSubscription: false), accept(second),
            ]),
            [
                "accept first: true -> subscribed(first)",
                "leave: false -> subscribed(first)",
                "accept second: false -> subscribed(first)",
                "cancel: upstream first, releases now true -> terminal",
                "cancel: upstream nil, releases now false -> terminal",
                "accept second: false -> terminal",
            ])
    }

    func testACancelFromInsideTheSubscriptionsDeliveryLeavesTheReleaseToItsEnd() {
        XCTAssertEqual(
            history([accept(first), cancel(evenBeforeSubscription: false), leave, enter]),
            [
                "accept first: true -> subscribed(first)",
                "cancel: upstream first, releases now false -> terminal",
                "leave: true -> terminal",
                "enter: false -> terminal",
            ])
    }

    func testACancelDuringAValueLeavesTheReleaseToTheValuesEnd() {
        XCTAssertEqual(
            history([accept(first), leave, enter, cancel(evenBeforeSubscription: false), leave, enter]),
            [
                "accept first: true -> subscribed(first)",
                "leave: false -> subscribed(first)",
                "enter: true -> subscribed(first)",
                "cancel: upstream first, releases now false -> terminal",
                "leave: true -> terminal",
                "enter: false -> terminal",
            ])
    }

    func testAnEarlyCancelIsIgnoredOrEndsTheStreamAsTheOperatorSays() {
        XCTAssertEqual(
            history([cancel(evenBeforeSubscription: false), accept(first)]),
            [
                "cancel: upstream nil, releases now false -> awaiting",
                "accept first: true -> subscribed(first)",
            ])
        XCTAssertEqual(
            history([cancel(evenBeforeSubscription: true), accept(first)]),
            [
                "cancel, ending early: upstream nil, releases now false -> terminal",
                "accept first: false -> terminal",
            ])
    }

    func testEndingAnswersWhatTheStatusWas() {
        XCTAssertEqual(
            history([
                ("end", { self.describe($0.end(evenBeforeSubscription: false)) }),
                ("endIfSubscribed", { self.name($0.endIfSubscribed()) }),
                ("attach first", { "\($0.attach(self.first))" }),
                ("upstream", { self.name($0.upstream) }),
                ("endIfSubscribed", { self.name($0.endIfSubscribed()) }),
                ("upstream", { self.name($0.upstream) }),
                ("terminate", { "\($0.terminate())" }),
            ]),
            [
                "end: awaiting -> awaiting",
                "endIfSubscribed: nil -> awaiting",
                "attach first: true -> subscribed(first)",
                "upstream: first -> subscribed(first)",
                "endIfSubscribed: first -> terminal",
                "upstream: nil -> terminal",
                "terminate: (ended: false, upstream: nil) -> terminal",
            ])
        XCTAssertEqual(
            history([
                ("terminate", { "\($0.terminate())" }),
                ("end", { self.describe($0.end(evenBeforeSubscription: true)) }),
            ]),
            ["terminate: (ended: true, upstream: nil) -> terminal", "end: terminal -> terminal"])
    }

    func testTheSubscriptionIsTakenFromAnEndedStatusOnce() {
        XCTAssertNil(UpstreamStatus.awaitingSubscription.takeSubscription())
        XCTAssertNil(UpstreamStatus.terminal.takeSubscription())
        weak var released: RecordingSubscription?
        do {
            let subscription = RecordingSubscription()
            released = subscription
            var status = UpstreamStatus.awaitingSubscription
            XCTAssertTrue(status.attach(subscription))
            let taken = UpstreamStatus.end(&status).takeSubscription()
            XCTAssertTrue(taken as? RecordingSubscription === subscription)
            XCTAssertEqual(describe(status), "terminal")
        }
        XCTAssertNil(released, "moved out, the subscription is released exactly once, with the last reference")
    }

    func testIsSubscribedAnswersForEachCaseAndLeavesTheStatusAsItWas() {
        weak var released: RecordingSubscription?
        do {
            let subscription = RecordingSubscription()
            released = subscription
            var status = UpstreamStatus.awaitingSubscription
            var answers = ["awaiting: \(status.isSubscribed()) -> \(describe(status))"]
            _ = status.attach(subscription)
            answers.append("subscribed: \(status.isSubscribed()) -> \(describe(status))")
            XCTAssertTrue(status.subscription as? RecordingSubscription === subscription)
            _ = UpstreamStatus.end(&status)
            answers.append("ended: \(status.isSubscribed()) -> \(describe(status))")
            XCTAssertEqual(
                answers,
                ["awaiting: false -> awaiting", "subscribed: true -> subscribed(other)", "ended: false -> terminal"])
        }
        XCTAssertNil(released, "checking neither copies the subscription for good nor loses it")
    }

    func testAttachingDoesNotOpenTheHandOff() {
        // A link used only for its status (print, output(in:)) never opens the hand-off; a value
        // entering it before `open` traps, so this asks the lenient form.
        XCTAssertEqual(
            history([
                ("attach first", { "\($0.attach(self.first))" }),
                ("enter if subscribed", { "\($0.handOff.enterIfSubscribed())" }),
            ]),
            ["attach first: true -> subscribed(first)", "enter if subscribed: false -> subscribed(first)"])
    }
}
