import Tether
@testable import TetherExtras
import TetherTesting
import XCTest

/// The state machine behind `AnyPublisher.create`, driven directly: no threads, no body. Each
/// scenario plays the subscription's threads by turns, records what every event answered and
/// where the state stood after it, and asserts the whole history.
final class CreateStateTests: XCTestCase {
    private typealias State = CreateState<Int, TestError>
    private typealias Step = StateStep<State>

    private let downstream = RecordingSubscriber<Int, TestError>()
    private let cleanup = AnyCancellable {}

    private func history(_ steps: [Step]) -> [String] {
        stateHistory(State(downstream: AnySubscriber(downstream)), steps) { state in
            var words = [
                self.name(state.downstream), "buffered \(self.describe(Array(state.buffer)))",
                "demand \(state.demand)",
            ]
            if let completion = state.completion { words.append("waiting \(completion)") }
            if state.sourceDone { words.append("source done") }
            if state.draining { words.append("draining") }
            switch state.cleanup {
            case .awaited: words.append("cleanup awaited")
            case .stored(let stored): words.append("cleanup stored: \(self.name(stored))")
            case .done: words.append("cleanup done")
            }
            return words.joined(separator: ", ")
        }
    }

    /// The values, or the first and last of a long run.
    private func describe(_ values: [Int]) -> String {
        guard values.count > 4, let first = values.first, let last = values.last else { return "\(Array(values))" }
        return "\(first)...\(last)"
    }

    private func name(_ subscriber: AnySubscriber<Int, TestError>?) -> String {
        guard let subscriber else { return "released" }
        return subscriber.combineIdentifier == downstream.combineIdentifier ? "downstream" : "another subscriber"
    }

    private func name(_ cancellable: AnyCancellable?) -> String {
        guard let cancellable else { return "none" }
        return cancellable === cleanup ? "cleanup" : "another cancellable"
    }

    private func describe(_ step: State.Step) -> String {
        switch step {
        case .stop: return "stop"
        case .value(let value, let subscriber): return "deliver \(value) to \(name(subscriber))"
        case .complete(let subscriber, let completion): return "\(completion) to \(name(subscriber))"
        }
    }

    private let starting = Step { state in "starting: \(state.starting() ? "run the body" : "do not run it")" }

    private var bodyReturned: Step {
        Step { state in "body returned: run now \(self.name(state.bodyReturned(self.cleanup)))" }
    }

    private func send(_ values: ClosedRange<Int>) -> Step {
        Step { state in
            let answers = values.map { state.send($0) }
            return "send \(values): " + (Set(answers).count == 1 ? "\(answers[0])" : "\(answers)")
        }
    }

    private func send(completion: Subscribers.Completion<TestError>) -> Step {
        Step { state in
            switch state.send(completion: completion) {
            case .ignore: return "send \(completion): ignore"
            case .drainThenCleanUp(let stored): return "send \(completion): drain, then run \(self.name(stored))"
            }
        }
    }

    private func request(_ demand: Subscribers.Demand) -> Step {
        Step { state in
            state.request(demand)
            return "request \(demand)"
        }
    }

    private var startDrain: Step {
        Step { state in "start drain: \(self.describe(state.startDrain()))" }
    }

    private func delivered(_ extra: Subscribers.Demand) -> Step {
        Step { state in "delivered, \(extra) more: \(self.describe(self.delivered(extra, &state)))" }
    }

    /// The state's answer, or `stop` where there is no drain to tell (which traps): a state that
    /// ends a drain too early fails its history rather than the whole run.
    private func delivered(_ extra: Subscribers.Demand, _ state: inout State) -> State.Step {
        state.draining ? state.delivered(extra) : .stop
    }

    /// `delivered(.none)` `times` times over: the values delivered to the downstream one after the
    /// other, as a range; every answer, when they are anything else.
    private func delivered(times: Int) -> Step {
        Step { state in
            var values: [Int] = []
            var others: [String] = []
            for _ in 1...times {
                let step = self.delivered(.none, &state)
                if case .value(let value, let subscriber) = step, self.name(subscriber) == "downstream",
                    values.last.map({ $0 + 1 }) ?? value == value
                {
                    values.append(value)
                } else {
                    others.append(self.describe(step))
                }
            }
            guard others.isEmpty, let first = values.first, let last = values.last else {
                return "delivered \(times) times: \(values), then \(others)"
            }
            return "delivered \(times) times: deliver \(first)...\(last) to downstream"
        }
    }

    private var cancel: Step {
        Step { state in
            let (released, buffer, cleanup) = state.cancel()
            return "cancel: let go of \(self.name(released)) and \(Array(buffer)), run \(self.name(cleanup))"
        }
    }

    func testValuesWaitForDemandAndTheCompletionForTheBuffer() {
        XCTAssertEqual(
            history([
                starting, bodyReturned, send(1...2), startDrain, request(.max(1)), startDrain, delivered(.none),
                send(completion: .finished), startDrain, send(3...3), request(.max(1)), startDrain, delivered(.none),
                send(completion: .failure(TestError(id: 1))),
            ]),
            [
                "starting: run the body -> downstream, buffered [], demand max(0), cleanup awaited",
                "body returned: run now none"
                    + " -> downstream, buffered [], demand max(0), cleanup stored: cleanup",
                "send 1...2: true -> downstream, buffered [1, 2], demand max(0), cleanup stored: cleanup",
                "start drain: stop -> downstream, buffered [1, 2], demand max(0), cleanup stored: cleanup",
                "request max(1) -> downstream, buffered [1, 2], demand max(1), cleanup stored: cleanup",
                "start drain: deliver 1 to downstream"
                    + " -> downstream, buffered [2], demand max(0), draining, cleanup stored: cleanup",
                "delivered, max(0) more: stop"
                    + " -> downstream, buffered [2], demand max(0), cleanup stored: cleanup",
                "send finished: drain, then run cleanup"
                    + " -> downstream, buffered [2], demand max(0), waiting finished, source done, cleanup done",
                "start drain: stop"
                    + " -> downstream, buffered [2], demand max(0), waiting finished, source done, cleanup done",
                "send 3...3: false"
                    + " -> downstream, buffered [2], demand max(0), waiting finished, source done, cleanup done",
                "request max(1)"
                    + " -> downstream, buffered [2], demand max(1), waiting finished, source done, cleanup done",
                "start drain: deliver 2 to downstream -> downstream, buffered [], demand max(0),"
                    + " waiting finished, source done, draining, cleanup done",
                "delivered, max(0) more: finished to downstream"
                    + " -> released, buffered [], demand max(0), source done, cleanup done",
                "send failure(TestError(1)): ignore"
                    + " -> released, buffered [], demand max(0), source done, cleanup done",
            ])
    }

    func testADrainTakesWhatAnotherThreadSendsAndTheDemandItIsGiven() {
        XCTAssertEqual(
            history([
                bodyReturned, request(.max(1)), send(1...1), startDrain, send(2...3), startDrain, request(.max(1)),
                startDrain, delivered(.max(1)), delivered(.none), delivered(.none),
            ]),
            [
                "body returned: run now none"
                    + " -> downstream, buffered [], demand max(0), cleanup stored: cleanup",
                "request max(1) -> downstream, buffered [], demand max(1), cleanup stored: cleanup",
                "send 1...1: true -> downstream, buffered [1], demand max(1), cleanup stored: cleanup",
                "start drain: deliver 1 to downstream"
                    + " -> downstream, buffered [], demand max(0), draining, cleanup stored: cleanup",
                "send 2...3: true"
                    + " -> downstream, buffered [2, 3], demand max(0), draining, cleanup stored: cleanup",
                "start drain: stop"
                    + " -> downstream, buffered [2, 3], demand max(0), draining, cleanup stored: cleanup",
                "request max(1)"
                    + " -> downstream, buffered [2, 3], demand max(1), draining, cleanup stored: cleanup",
                "start drain: stop"
                    + " -> downstream, buffered [2, 3], demand max(1), draining, cleanup stored: cleanup",
                "delivered, max(1) more: deliver 2 to downstream"
                    + " -> downstream, buffered [3], demand max(1), draining, cleanup stored: cleanup",
                "delivered, max(0) more: deliver 3 to downstream"
                    + " -> downstream, buffered [], demand max(0), draining, cleanup stored: cleanup",
                "delivered, max(0) more: stop"
                    + " -> downstream, buffered [], demand max(0), cleanup stored: cleanup",
            ])
    }

    func testACancelWhileTheBodyRunsHasTheCleanupRunWhenItReturns() {
        XCTAssertEqual(
            history([
                starting, send(1...1), cancel, bodyReturned, send(2...2), send(completion: .finished), request(.max(1)),
            ]),
            [
                "starting: run the body -> downstream, buffered [], demand max(0), cleanup awaited",
                "send 1...1: true -> downstream, buffered [1], demand max(0), cleanup awaited",
                "cancel: let go of downstream and [1], run none"
                    + " -> released, buffered [], demand max(0), source done, cleanup awaited",
                "body returned: run now cleanup"
                    + " -> released, buffered [], demand max(0), source done, cleanup done",
                "send 2...2: false -> released, buffered [], demand max(0), source done, cleanup done",
                "send finished: ignore -> released, buffered [], demand max(0), source done, cleanup done",
                "request max(1) -> released, buffered [], demand max(0), source done, cleanup done",
            ])
        XCTAssertEqual(
            history([cancel, starting]),
            [
                "cancel: let go of downstream and [], run none"
                    + " -> released, buffered [], demand max(0), source done, cleanup awaited",
                "starting: do not run it -> released, buffered [], demand max(0), source done, cleanup done",
            ])
    }

    func testACancelLetsGoOfTheBufferAndRunsTheStoredCleanupOnce() {
        XCTAssertEqual(
            history([
                starting, bodyReturned, request(.max(1)), send(1...2), startDrain, cancel, delivered(.max(1)), cancel,
                startDrain,
            ]),
            [
                "starting: run the body -> downstream, buffered [], demand max(0), cleanup awaited",
                "body returned: run now none"
                    + " -> downstream, buffered [], demand max(0), cleanup stored: cleanup",
                "request max(1) -> downstream, buffered [], demand max(1), cleanup stored: cleanup",
                "send 1...2: true -> downstream, buffered [1, 2], demand max(1), cleanup stored: cleanup",
                "start drain: deliver 1 to downstream"
                    + " -> downstream, buffered [2], demand max(0), draining, cleanup stored: cleanup",
                "cancel: let go of downstream and [2], run cleanup"
                    + " -> released, buffered [], demand max(0), source done, draining, cleanup done",
                "delivered, max(1) more: stop -> released, buffered [], demand max(0), source done, cleanup done",
                "cancel: let go of released and [], run none"
                    + " -> released, buffered [], demand max(0), source done, cleanup done",
                "start drain: stop -> released, buffered [], demand max(0), source done, cleanup done",
            ])
    }

    func testADeliveredValueLeavesTheBufferAtOnceWhileOthersStillWait() {
        final class Payload {}
        var state = CreateState<Payload, Never>(downstream: AnySubscriber(RecordingSubscriber<Payload, Never>()))
        weak var delivered: Payload?
        do {
            let first = Payload()
            delivered = first
            XCTAssertTrue(state.send(first))
            XCTAssertTrue(state.send(Payload()))
            state.request(.max(1))
            guard case .value(let value, _) = state.startDrain() else { return XCTFail("expected a delivery") }
            XCTAssertTrue(value === first)
        }
        XCTAssertEqual(state.buffer.count, 1)
        XCTAssertNil(delivered, "a value gone downstream is not kept while others wait")
    }
}
