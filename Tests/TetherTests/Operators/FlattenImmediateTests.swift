import Tether
import TetherTesting
import XCTest

/// `flatMap` and `switchToLatest` take a `Just`'s value without subscribing to it, erased to
/// `AnyPublisher` or not. Each scenario here runs three times, with `Just` inners, with the same
/// `Just`s erased (both taken at hand) and with `Just`s behind `Deferred` (subscribed to as any
/// other inner), and every run must show the same, pinned, history: what the downstream received
/// and what the upstream was asked.
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

    /// The inners a scenario runs with.
    private enum Inners: CaseIterable {
        /// `Just`s, taken at hand.
        case just
        /// `Just`s erased to `AnyPublisher`, taken at hand through the erasure.
        case erasedJust
        /// `Just`s behind `Deferred`, subscribed to as any inner is.
        case subscribed
    }

    /// `flatMap` (bounded by `maxPublishers`) of inners of kind `inners`.
    private func flatMapping(_ inners: Inners, maxPublishers: Subscribers.Demand = .unlimited) -> Build {
        { outer in
            switch inners {
            case .just:
                outer.flatMap(maxPublishers: maxPublishers) { Just($0) }.eraseToAnyPublisher()
            case .erasedJust:
                outer.flatMap(maxPublishers: maxPublishers) { Just($0).eraseToAnyPublisher() }.eraseToAnyPublisher()
            case .subscribed:
                outer.flatMap(maxPublishers: maxPublishers) { value in Deferred { Just(value) } }.eraseToAnyPublisher()
            }
        }
    }

    /// `switchToLatest` of inners of kind `inners`.
    private func switching(_ inners: Inners) -> Build {
        { outer in
            switch inners {
            case .just: outer.map { Just($0) }.switchToLatest().eraseToAnyPublisher()
            case .erasedJust: outer.map { Just($0).eraseToAnyPublisher() }.switchToLatest().eraseToAnyPublisher()
            case .subscribed: outer.map { value in Deferred { Just(value) } }.switchToLatest().eraseToAnyPublisher()
            }
        }
    }

    /// Runs `scenario` over `flatMap` with every kind of inner; each run must give `expected`.
    private func assertEveryWay(
        _ expected: Run, file: StaticString = #filePath, line: UInt = #line, _ scenario: (Build) -> Run
    ) {
        for inners in Inners.allCases {
            XCTAssertEqual(scenario(flatMapping(inners)), expected, "\(inners) inners", file: file, line: line)
        }
    }

    func testValuesBeyondDemandWaitAndTheFinishWaitsForThem() {
        let expected = Run(
            received: [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)],
            upstream: [.requested(.unlimited)])
        assertEveryWay(expected) { build in
            let script: (Outer, Recorder) -> Void = { outer, recorder in
                _ = outer.send(1)
                _ = outer.send(2)
                _ = outer.send(3)
                recorder.request(.max(1))
                _ = outer.send(4)
                outer.send(completion: .finished)
                recorder.request(.max(1))
            }
            return run(build, demand: .max(2), script: script)
        }
    }

    func testBoundedFlatMapAsksTheUpstreamForOneMoreAsEachJustFinishes() {
        let expected = Run(
            received: [.subscription, .value(1), .value(2), .completion(.finished)],
            upstream: [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
        let script: (Outer, Recorder) -> Void = { outer, recorder in
            _ = outer.send(1)
            _ = outer.send(2)
            recorder.request(.max(5))
            outer.send(completion: .finished)
        }
        for inners in Inners.allCases {
            let bounded = flatMapping(inners, maxPublishers: .max(1))
            XCTAssertEqual(run(bounded, demand: .none, script: script), expected, "\(inners) inners")
        }

        // With demand, each value goes straight through, and the request follows it.
        let delivered = Run(
            received: [.subscription, .value(1), .value(2)],
            upstream: [.requested(.max(1)), .requested(.max(1)), .requested(.max(1))])
        let sends: (Outer, Recorder) -> Void = { outer, _ in
            _ = outer.send(1)
            _ = outer.send(2)
        }
        for inners in Inners.allCases {
            let bounded = flatMapping(inners, maxPublishers: .max(1))
            XCTAssertEqual(run(bounded, demand: .unlimited, script: sends), delivered, "\(inners) inners")
        }
    }

    func testSwitchToLatestKeepsOnlyTheNewestWaitingJust() {
        let expected = Run(
            received: [.subscription, .value(2), .value(3), .completion(.finished)],
            upstream: [.requested(.unlimited)])
        let script: (Outer, Recorder) -> Void = { outer, recorder in
            _ = outer.send(1)
            _ = outer.send(2)
            recorder.request(.max(1))
            _ = outer.send(3)
            outer.send(completion: .finished)
            recorder.request(.max(1))
        }
        for inners in Inners.allCases {
            XCTAssertEqual(run(switching(inners), demand: .none, script: script), expected, "\(inners) inners")
        }
    }

    func testAValueSentFromInsideTheDownstreamIsDeliveredAfterTheCurrentOne() {
        let expected = Run(
            received: [.subscription, .value(1), .value(10), .value(2)],
            upstream: [.requested(.unlimited)])
        assertEveryWay(expected) { build in
            let reentrant: (Outer, Recorder, Int) -> Subscribers.Demand = { outer, _, value in
                if value == 1 { _ = outer.send(10) }
                return .none
            }
            let script: (Outer, Recorder) -> Void = { outer, _ in
                _ = outer.send(1)
                _ = outer.send(2)
            }
            return run(build, demand: .unlimited, demandPerValue: reentrant, script: script)
        }
    }

    func testCancellingFromInsideTheDownstreamStopsEverythingAndCancelsTheUpstream() {
        let expected = Run(
            received: [.subscription, .value(1), .value(2)],
            upstream: [.requested(.unlimited), .cancelled])
        assertEveryWay(expected) { build in
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
            return run(build, demand: .unlimited, demandPerValue: cancelling, script: script)
        }
    }

    func testAnUpstreamFailureDropsWaitingValuesAndFailsAtOnce() {
        let expected = Run(
            received: [.subscription, .value(1), .completion(.failure(TestError(id: 1)))],
            upstream: [.requested(.unlimited)])
        assertEveryWay(expected) { build in
            let script: (Outer, Recorder) -> Void = { outer, _ in
                _ = outer.send(1)
                _ = outer.send(2)
                outer.send(completion: .failure(TestError(id: 1)))
            }
            return run(build, demand: .max(1), script: script)
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
