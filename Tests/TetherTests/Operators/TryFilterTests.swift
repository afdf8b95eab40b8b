import Tether
import TetherTesting
import XCTest

final class TryFilterTests: TetherTestCase {
    func testRejectedValuesAreCompensatedWithDemandOfOne() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(1))
        publisher.tryFilter { $0.isMultiple(of: 2) }.subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.max(1)])
        XCTAssertEqual(publisher.send(2), [.none])
        recorder.request(.max(1))
        XCTAssertEqual(publisher.send(3), [.max(1)])
        XCTAssertEqual(publisher.send(4), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.history, [".subscription", ".value(2)", ".value(4)", ".completion(.finished)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .requested(.max(1))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryFilter"])
    }

    func testThrowCancelsUpstreamFailsDownstreamAndIgnoresEverythingAfter() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        var calls = 0
        publisher.tryFilter { value in
            calls += 1
            if value == 0 { throw TestError(id: 0) }
            return value > 1
        }.subscribe(recorder)

        XCTAssertEqual(publisher.send(2), [.none])
        XCTAssertEqual(publisher.send(0), [.none])
        XCTAssertEqual(publisher.send(5), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.history, [".subscription", ".value(2)", ".completion(.failure(TestError(0)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(calls, 2)
    }

    func testKeepsDownstreamAndClosureAfterACancelAsCombineDoes() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, any Error>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, any Error>()
            weakRecorder = recorder
            publisher.tryFilter { [token] _ in
                _ = token; return true
            }.subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNotNil(weakToken, "so is the closure")
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
        XCTAssertNil(weakToken)
    }

    func testFilterThenTryFilterFusesAndSkipsTheSecondTestForRejectedValues() {
        let publisher = RecordingPublisher<Int, Never>()
        var secondCalls: [Int] = []
        let fused: Publishers.TryFilter<RecordingPublisher<Int, Never>> =
            publisher
            .filter { $0 > 1 }
            .tryFilter { value in
                secondCalls.append(value)
                if value == 9 { throw TestError(id: 9) }
                return value.isMultiple(of: 2)
            }
        XCTAssertTrue(fused.upstream === publisher)
        let recorder = RecordingSubscriber<Int, any Error>()
        fused.subscribe(recorder)
        for value in [1, 2, 3, 9, 4] { publisher.send(value) }

        XCTAssertEqual(recorder.history, [".subscription", ".value(2)", ".completion(.failure(TestError(9)))"])
        XCTAssertEqual(secondCalls, [2, 3, 9])
    }

    func testTryFilterThenFilterAndTryFilterFuseIntoOneTryFilter() {
        let publisher = RecordingPublisher<Int, Never>()
        var laterCalls: [Int] = []
        let filtered: Publishers.TryFilter<RecordingPublisher<Int, Never>> =
            publisher
            .tryFilter { value in
                if value < 0 { throw TestError(id: value) }
                return value.isMultiple(of: 2)
            }
            .filter {
                laterCalls.append($0); return $0 > 2
            }
        let fused: Publishers.TryFilter<RecordingPublisher<Int, Never>> =
            filtered
            .tryFilter { $0 != 6 }
        XCTAssertTrue(fused.upstream === publisher)
        let recorder = RecordingSubscriber<Int, any Error>(demand: .max(5))
        fused.subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.max(1)])
        XCTAssertEqual(publisher.send(2), [.max(1)])
        XCTAssertEqual(publisher.send(4), [.none])
        XCTAssertEqual(publisher.send(6), [.max(1)])
        XCTAssertEqual(publisher.send(-3), [.none])

        XCTAssertEqual(recorder.history, [".subscription", ".value(4)", ".completion(.failure(TestError(-3)))"])
        XCTAssertEqual(laterCalls, [2, 4, 6])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryFilter"])
    }
}
