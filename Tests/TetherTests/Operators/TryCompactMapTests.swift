import Tether
import TetherTesting
import XCTest

final class TryCompactMapTests: TetherTestCase {
    func testNilResultsAreCompensatedWithDemandOfOne() {
        let publisher = RecordingPublisher<String, Never>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(1), demandPerValue: { _ in .max(1) })
        publisher.tryCompactMap { Int($0) }.subscribe(recorder)

        XCTAssertEqual(publisher.send("a"), [.max(1)])
        XCTAssertEqual(publisher.send("1"), [.max(1)])
        XCTAssertEqual(publisher.send("b"), [.max(1)])
        XCTAssertEqual(publisher.send("2"), [.max(1)])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.history, [".subscription", ".value(1)", ".value(2)", ".completion(.finished)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryCompactMap"])
    }

    func testThrowCancelsUpstreamFailsDownstreamAndIgnoresEverythingAfter() {
        let publisher = RecordingPublisher<String, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(3), demandPerValue: { _ in .max(10) })
        var calls = 0
        publisher.tryCompactMap { text -> Int? in
            calls += 1
            if text == "throw" { throw TestError(id: 1) }
            return Int(text)
        }.subscribe(recorder)

        XCTAssertEqual(publisher.send("2"), [.max(10)])
        XCTAssertEqual(publisher.send("throw"), [.none])
        XCTAssertEqual(publisher.send("9"), [.none])
        publisher.send(completion: .failure(TestError(id: 2)))
        recorder.request(.max(1_000))
        recorder.cancel()

        XCTAssertEqual(recorder.history, [".subscription", ".value(2)", ".completion(.failure(TestError(1)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(3)), .cancelled])
        XCTAssertEqual(calls, 2)
    }

    func testCompactMapFusesIntoOneTryCompactMap() {
        let publisher = RecordingPublisher<String, Never>()
        let fused: Publishers.TryCompactMap<RecordingPublisher<String, Never>, Int> =
            publisher
            .tryCompactMap { Int($0) }
            .compactMap { value -> Int? in
                if value < 0 { throw TestError(id: value) }
                return value.isMultiple(of: 2) ? value / 2 : nil
            }
        XCTAssertTrue(fused.upstream === publisher)
        let recorder = RecordingSubscriber<Int, any Error>()
        fused.subscribe(recorder)

        XCTAssertEqual(publisher.send("x"), [.max(1)])
        XCTAssertEqual(publisher.send("3"), [.max(1)])
        XCTAssertEqual(publisher.send("8"), [.none])
        XCTAssertEqual(publisher.send("-1"), [.none])

        XCTAssertEqual(recorder.history, [".subscription", ".value(4)", ".completion(.failure(TestError(-1)))"])
    }

    func testKeepsDownstreamAndClosureAfterACancelAsCombineDoes() {
        let publisher = RecordingPublisher<String, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, any Error>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, any Error>()
            weakRecorder = recorder
            publisher.tryCompactMap { [token] in
                _ = token; return Int($0)
            }.subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNotNil(weakToken, "so is the closure")
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
        XCTAssertNil(weakToken)
    }

    func testKeepsDownstreamAndClosureAfterTheUpstreamFinishedAsCombineDoes() {
        // CombineX's suite, run against Combine: the subscription, kept by its subscriber, keeps
        // the closure after a completion.
        let publisher = RecordingPublisher<String, Never>()
        weak var weakToken: Token?
        var kept: (any Subscription)?
        var history: [String] = []
        do {
            let token = Token()
            weakToken = token
            publisher.tryCompactMap { [token] in
                _ = token; return Int($0)
            }.subscribe(
                AnySubscriber<Int, any Error>(
                    receiveSubscription: { subscription in
                        kept = subscription
                        subscription.request(.unlimited)
                    },
                    receiveValue: { value in
                        history.append("value \(value)")
                        return .none
                    },
                    receiveCompletion: { history.append("\($0)") }))
        }
        XCTAssertEqual(publisher.send("1"), [.none])
        publisher.send(completion: .finished)
        publisher.releaseSubscribers()
        XCTAssertEqual(history, ["value 1", "finished"])
        XCTAssertNotNil(kept)
        XCTAssertNotNil(weakToken, "the subscriber keeps the subscription, which keeps the closure")
        kept = nil
        XCTAssertNil(weakToken)
    }
}
