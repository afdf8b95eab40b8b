import Tether
import TetherTesting
import XCTest

final class SinkTests: TetherTestCase {
    func testACompletionSentAgainFromInsideReceiveCompletionReachesNothing() {
        var completions: [Subscribers.Completion<Never>] = []
        var sink: Subscribers.Sink<Int, Never>?
        sink = Subscribers.Sink(
            receiveCompletion: { completion in
                completions.append(completion)
                sink?.receive(completion: completion)
            },
            receiveValue: { _ in })
        let subscription = RecordingSubscription()
        sink?.receive(subscription: subscription)
        sink?.receive(completion: .finished)
        XCTAssertEqual(completions, [.finished])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        sink = nil
    }

    /// An object whose release the closures' captures can be watched by.
    private final class Captured {}

    func testACancelAfterTheSubscriptionLetsGoOfBothClosuresAsCombineDoes() {
        var captured: Captured? = Captured()
        weak let watched = captured
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { [captured] _ in withExtendedLifetime(captured) {} },
            receiveValue: { [captured] _ in withExtendedLifetime(captured) {} })
        captured = nil
        let subscription = RecordingSubscription()
        sink.receive(subscription: subscription)
        XCTAssertNotNil(watched)
        sink.cancel()
        XCTAssertNil(watched, "released by cancel(), while the sink lives")
        XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
        withExtendedLifetime(sink) {}
    }

    func testACancelBeforeTheSubscriptionKeepsTheClosuresAndCancelsTheSubscriptionOnArrival() {
        var values: [Int] = []
        var captured: Captured? = Captured()
        weak let watched = captured
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { [captured] _ in withExtendedLifetime(captured) {} },
            receiveValue: { values.append($0) })
        captured = nil
        sink.cancel()
        XCTAssertNotNil(watched, "Combine keeps them: there was nothing to cancel")
        let subscription = RecordingSubscription()
        sink.receive(subscription: subscription)
        XCTAssertEqual(subscription.events, [.cancelled])
        _ = sink.receive(1)
        XCTAssertEqual(values, [1])
        withExtendedLifetime(sink) {}
    }

    func testACancelAfterTheCompletionOrAfterACancelCancelsNothingMore() {
        var completions: [Subscribers.Completion<Never>] = []
        let completedSubscription = RecordingSubscription()
        let completed = Subscribers.Sink<Int, Never>(
            receiveCompletion: { completions.append($0) }, receiveValue: { _ in })
        completed.receive(subscription: completedSubscription)
        completed.receive(completion: .finished)
        completed.cancel()
        completed.cancel()
        XCTAssertEqual(completedSubscription.events, [.requested(.unlimited)])
        XCTAssertEqual(completions, [.finished])

        let cancelledSubscription = RecordingSubscription()
        let cancelled = Subscribers.Sink<Int, Never>(
            receiveCompletion: { completions.append($0) }, receiveValue: { _ in })
        cancelled.receive(subscription: cancelledSubscription)
        cancelled.cancel()
        cancelled.cancel()
        cancelled.receive(completion: .finished)
        XCTAssertEqual(cancelledSubscription.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(completions, [.finished], "nothing reaches a cancelled sink")
    }

    func testValuesAndACompletionAfterACancelReachNoClosure() {
        var events: [String] = []
        let sink = Subscribers.Sink<Int, TestError>(
            receiveCompletion: { events.append("\($0)") },
            receiveValue: { events.append("\($0)") })
        sink.receive(subscription: RecordingSubscription())
        XCTAssertEqual(sink.receive(1), .none)
        sink.cancel()
        XCTAssertEqual(sink.receive(2), .none)
        sink.receive(completion: .finished)
        XCTAssertEqual(events, ["1"])
    }

    func testAValueBeforeTheSubscriptionReachesTheClosureAsInCombine() {
        var values: [Int] = []
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { values.append($0) })
        XCTAssertEqual(sink.receive(1), .none)
        XCTAssertEqual(values, [1])
    }

    func testACompletionLetsGoOfTheValueClosureBeforeCallingTheCompletionClosure() {
        var events: [String] = []
        var sink: Subscribers.Sink<Int, Never>?
        sink = Subscribers.Sink(
            receiveCompletion: { _ in
                events.append("finished")
                _ = sink?.receive(2)
            },
            receiveValue: { events.append("\($0)") })
        sink?.receive(subscription: RecordingSubscription())
        _ = sink?.receive(1)
        sink?.receive(completion: .finished)
        XCTAssertEqual(events, ["1", "finished"])
        sink = nil
    }

    func testACancelInsideAReentrantValueLetsGoOfTheClosuresOnceTheOutermostValueReturns() {
        var events: [String] = []
        var captured: Captured? = Captured()
        weak let watched = captured
        var sink: Subscribers.Sink<Int, Never>?
        sink = Subscribers.Sink(
            receiveCompletion: { _ in },
            receiveValue: { [captured] value in
                events.append("\(value)")
                if value == 1 {
                    _ = sink?.receive(2)
                    events.append("alive after the nested value: \(captured != nil)")
                } else {
                    sink?.cancel()
                    events.append("cancelled")
                }
            })
        captured = nil
        let subscription = RecordingSubscription()
        sink?.receive(subscription: subscription)
        _ = sink?.receive(1)
        XCTAssertEqual(events, ["1", "2", "cancelled", "alive after the nested value: true"])
        XCTAssertNil(watched, "let go of once the outermost value returned")
        XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
        _ = sink?.receive(3)
        XCTAssertEqual(events.count, 4)
        sink = nil
    }
}
