import Tether
import TetherTesting
import XCTest

/// `flatMap` and `switchToLatest` take a `Just`'s value without subscribing to it. Each scenario
/// here runs twice, once with `Just` inners (the shortcut) and once with the same `Just`s erased
/// to `AnyPublisher` (subscribed as any other inner), and both runs must show the same, pinned,
/// history: what the downstream received and what the upstream was asked.
final class FlattenImmediateTests: TetherTestCase {
    private typealias Outer = RecordingPublisher<Int, TestError>
    private typealias Recorder = RecordingSubscriber<Int, TestError>
    private typealias Build = (Outer) -> AnyPublisher<Int, TestError>

    /// What one run of a scenario showed.
    private struct Run: Equatable {
        var received: [Recorder.Event]
        var upstream: [SubscriptionEvent]
    }

    private func run(
        _ build: Build, demand: Subscribers.Demand,
        demandPerValue: @escaping (Outer, Recorder, Int) -> Subscribers.Demand = { _, _, _ in .none },
        script: (Outer, Recorder) -> Void
    ) -> Run {
        let outer = Outer()
        var recorder: Recorder!
        recorder = Recorder(demand: demand) { [unowned outer] value in demandPerValue(outer, recorder, value) }
        build(outer).subscribe(recorder)
        script(outer, recorder)
        let run = Run(received: recorder.events, upstream: outer.subscription?.events ?? [])
        recorder.cancel()
        recorder = nil
        return run
    }

    /// Runs `scenario` with `Just` inners and with erased ones; both must give `expected`.
    private func assertBothWays(
        _ expected: Run, file: StaticString = #filePath, line: UInt = #line,
        _ scenario: (_ immediate: Build, _ subscribed: Build) -> (Run, Run)
    ) {
        let (immediate, subscribed) = scenario(
            { $0.flatMap { Just($0) }.eraseToAnyPublisher() },
            { $0.flatMap { Just($0).eraseToAnyPublisher() }.eraseToAnyPublisher() })
        XCTAssertEqual(subscribed, expected, "subscribed inners", file: file, line: line)
        XCTAssertEqual(immediate, expected, "Just inners", file: file, line: line)
    }

    func testValuesBeyondDemandWaitAndTheFinishWaitsForThem() {
        let expected = Run(
            received: [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)],
            upstream: [.requested(.unlimited)])
        assertBothWays(expected) { immediate, subscribed in
            let script: (Outer, Recorder) -> Void = { outer, recorder in
                _ = outer.send(1)
                _ = outer.send(2)
                _ = outer.send(3)
                recorder.request(.max(1))
                _ = outer.send(4)
                outer.send(completion: .finished)
                recorder.request(.max(1))
            }
            return (run(immediate, demand: .max(2), script: script), run(subscribed, demand: .max(2), script: script))
        }
    }

    func testBoundedFlatMapAsksTheUpstreamForOneMoreAsEachJustFinishes() {
        let expected = Run(
            received: [.subscription, .value(1), .value(2), .completion(.finished)],
            upstream: [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
        let bounded: (Bool) -> Build = { erased in
            { outer in
                erased
                    ? outer.flatMap(maxPublishers: .max(1)) { Just($0).eraseToAnyPublisher() }.eraseToAnyPublisher()
                    : outer.flatMap(maxPublishers: .max(1)) { Just($0) }.eraseToAnyPublisher()
            }
        }
        let script: (Outer, Recorder) -> Void = { outer, recorder in
            _ = outer.send(1)
            _ = outer.send(2)
            recorder.request(.max(5))
            outer.send(completion: .finished)
        }
        XCTAssertEqual(run(bounded(true), demand: .none, script: script), expected)
        XCTAssertEqual(run(bounded(false), demand: .none, script: script), expected)

        // With demand, each value goes straight through, and the request follows it.
        let delivered = Run(
            received: [.subscription, .value(1), .value(2)],
            upstream: [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
        let sends: (Outer, Recorder) -> Void = { outer, _ in
            _ = outer.send(1)
            _ = outer.send(2)
        }
        XCTAssertEqual(run(bounded(true), demand: .unlimited, script: sends), delivered)
        XCTAssertEqual(run(bounded(false), demand: .unlimited, script: sends), delivered)
    }

    func testSwitchToLatestKeepsOnlyTheNewestWaitingJust() {
        let expected = Run(
            received: [.subscription, .value(2), .value(3), .completion(.finished)],
            upstream: [.requested(.unlimited)])
        let switching: (Bool) -> Build = { erased in
            { outer in
                erased
                    ? outer.map { Just($0).eraseToAnyPublisher() }.switchToLatest().eraseToAnyPublisher()
                    : outer.map { Just($0) }.switchToLatest().eraseToAnyPublisher()
            }
        }
        let script: (Outer, Recorder) -> Void = { outer, recorder in
            _ = outer.send(1)
            _ = outer.send(2)
            recorder.request(.max(1))
            _ = outer.send(3)
            outer.send(completion: .finished)
            recorder.request(.max(1))
        }
        XCTAssertEqual(run(switching(true), demand: .none, script: script), expected)
        XCTAssertEqual(run(switching(false), demand: .none, script: script), expected)
    }

    func testAValueSentFromInsideTheDownstreamIsDeliveredAfterTheCurrentOne() {
        let expected = Run(
            received: [.subscription, .value(1), .value(10), .value(2)],
            upstream: [.requested(.unlimited)])
        assertBothWays(expected) { immediate, subscribed in
            let reentrant: (Outer, Recorder, Int) -> Subscribers.Demand = { outer, _, value in
                if value == 1 { _ = outer.send(10) }
                return .none
            }
            let script: (Outer, Recorder) -> Void = { outer, _ in
                _ = outer.send(1)
                _ = outer.send(2)
            }
            return (
                run(immediate, demand: .unlimited, demandPerValue: reentrant, script: script),
                run(subscribed, demand: .unlimited, demandPerValue: reentrant, script: script)
            )
        }
    }

    func testCancellingFromInsideTheDownstreamStopsEverythingAndCancelsTheUpstream() {
        let expected = Run(
            received: [.subscription, .value(1), .value(2)],
            upstream: [.requested(.unlimited), .cancelled])
        assertBothWays(expected) { immediate, subscribed in
            let cancelling: (Outer, Recorder, Int) -> Subscribers.Demand = { _, recorder, value in
                if value == 2 { recorder.cancel() }
                return .none
            }
            let script: (Outer, Recorder) -> Void = { outer, _ in
                _ = outer.send(1)
                _ = outer.send(2)
                _ = outer.send(3)
                outer.send(completion: .finished)
            }
            return (
                run(immediate, demand: .unlimited, demandPerValue: cancelling, script: script),
                run(subscribed, demand: .unlimited, demandPerValue: cancelling, script: script)
            )
        }
    }

    func testAnUpstreamFailureDropsWaitingValuesAndFailsAtOnce() {
        let expected = Run(
            received: [.subscription, .value(1), .completion(.failure(TestError(id: 1)))],
            upstream: [.requested(.unlimited)])
        assertBothWays(expected) { immediate, subscribed in
            let script: (Outer, Recorder) -> Void = { outer, _ in
                _ = outer.send(1)
                _ = outer.send(2)
                outer.send(completion: .failure(TestError(id: 1)))
            }
            return (run(immediate, demand: .max(1), script: script), run(subscribed, demand: .max(1), script: script))
        }
    }

    func testFiveNestedFlatMapsOfJustDeliverEveryValueInOrder() {
        let values = Array(0..<100)
        let recorder = RecordingSubscriber<Int, Never>()
        values.publisher
            .flatMap { Just($0) }.flatMap { Just($0 + 1) }.flatMap { Just($0) }
            .flatMap { Just($0) }.flatMap { Just($0 - 1) }
            .subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription] + values.map { .value($0) } + [.completion(.finished)])
    }
}
