import Tether
import TetherTesting
import XCTest

/// A long chain of value-type relays erases its subscriber every few stages (so that the compiler
/// keeps specialising it, see `relayErases(_:)`); the chain must behave exactly as its stages do
/// one after another, whatever the erasures.
final class RelayErasureTests: TetherTestCase {
    /// Twelve stages of every value-type relay that erases: maps, filters, a compactMap, a
    /// mapError, a key path, a setFailureType. Each stage's effect is written out again in
    /// `model`.
    private func twelveStages(_ upstream: ManualPublisher<Int, Never>) -> AnyPublisher<Int, TestError> {
        // Typed one step at a time: the type checker will not take the chain in one expression.
        let plusOne: (Int) -> Int = { $0 + 1 }
        let notThrees: (Int) -> Bool = { $0 % 3 != 0 }
        let double: (Int) -> Int = { $0 * 2 }
        let notFives: (Int) -> Int? = { $0 % 5 == 0 ? nil : $0 }
        let minusOne: (Int) -> Int = { $0 - 1 }
        let aboveTwo: (Int) -> Bool = { $0 > 2 }
        let plusTen: (Int) -> Int = { $0 + 10 }
        let not23: (Int) -> Bool = { $0 != 23 }
        let same: (Int) -> Int = { $0 * 1 }
        let front = upstream.map(plusOne).filter(notThrees).map(double).compactMap(notFives)
        let middle = front.map(minusOne).filter(aboveTwo).map(\.self).setFailureType(to: TestError.self)
        let back = middle.map(plusTen).filter(not23).mapError { $0 }.map(same)
        return back.eraseToAnyPublisher()
    }

    private func model(_ value: Int) -> Int? {
        let first = value + 1
        guard first % 3 != 0 else { return nil }
        let second = first * 2
        guard second % 5 != 0 else { return nil }
        let third = second - 1
        guard third > 2 else { return nil }
        let fourth = third + 10
        guard fourth != 23 else { return nil }
        return fourth
    }

    func testTwelveStagesDeliverCompensateAndCompleteAsTheirStagesDo() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3)) { $0.isMultiple(of: 2) ? .max(1) : .none }
        twelveStages(upstream).subscribe(recorder)
        let subscription = RecordingSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        let demands = (0..<12).map { upstream.subscriber?.receive($0) }
        upstream.subscriber?.receive(completion: .finished)

        let kept = (0..<12).compactMap(model)
        XCTAssertEqual(kept, [13, 17, 25, 31], "the model keeps some values and each stage drops some")
        XCTAssertEqual(
            recorder.events, [.subscription] + kept.map { .value($0) } + [.completion(.finished)])
        // A dropped value is compensated with one, as `filter` and `compactMap` do; a kept one
        // returns what the subscriber returned.
        let expected: [Subscribers.Demand?] = (0..<12).map { value in
            guard let kept = model(value) else { return .max(1) }
            return kept.isMultiple(of: 2) ? .max(1) : Subscribers.Demand.none
        }
        XCTAssertEqual(demands, expected)
        XCTAssertEqual(subscription.events, [.requested(.max(3))])
    }

    func testTwelveStagesPassTheCancelUp() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .unlimited)
        twelveStages(upstream).subscribe(recorder)
        let subscription = RecordingSubscription()
        upstream.subscriber?.receive(subscription: subscription)
        recorder.cancel()
        XCTAssertEqual(subscription.events, [.requested(.unlimited), .cancelled])
    }

    /// The upstream sees the top stage's relay, described as that stage, and a subscriber type
    /// that stopped growing: twelve relays deep, it holds an erased subscriber a few relays down;
    /// two relays deep, it holds the subscriber itself.
    func testTheUpstreamSeesTheTopStageOverAnErasedSubscriberOnlyWhenTheChainIsLong() throws {
        let long = ManualPublisher<Int, Never>()
        twelveStages(long).subscribe(RecordingSubscriber<Int, TestError>())
        let longRelay = try XCTUnwrap(long.given)
        XCTAssertEqual(String(describing: longRelay), "Map")
        let longType = String(reflecting: type(of: longRelay))
        XCTAssertTrue(longType.contains("AnySubscriber"), longType)
        XCTAssertLessThanOrEqual(longType.components(separatedBy: ".Inner<").count - 1, 4, longType)

        let short = ManualPublisher<Int, Never>()
        short.map { $0 + 1 }.filter { $0 > 0 }.subscribe(RecordingSubscriber<Int, Never>())
        let shortType = String(reflecting: type(of: try XCTUnwrap(short.given)))
        XCTAssertFalse(shortType.contains("AnySubscriber"), shortType)
        XCTAssertTrue(shortType.contains("RecordingSubscriber"), shortType)
    }
}
