import Tether
import TetherTesting
import XCTest

final class SequenceOperatorTests: TetherTestCase {
    func testMapIsEagerAndReturnsASequencePublisherOfAnArray() {
        var calls = 0
        let mapped: Publishers.Sequence<[String], Never> = (1...3).publisher.map {
            calls += 1; return "\($0)"
        }
        XCTAssertEqual(calls, 3)
        XCTAssertEqual(mapped.sequence, ["1", "2", "3"])
        let recorder = RecordingSubscriber<String, Never>(demand: .max(2))
        mapped.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value("1"), .value("2")])
        recorder.cancel()
        XCTAssertEqual(calls, 3)
    }

    func testFilterKeepsTheFailureType() {
        let filtered: Publishers.Sequence<[Int], TestError> =
            Publishers.Sequence<[Int], TestError>(sequence: [1, 2, 3, 4]).filter { $0.isMultiple(of: 2) }
        XCTAssertEqual(filtered.sequence, [2, 4])
    }

    func testCompactMapDropsNils() {
        let parsed: Publishers.Sequence<[Int], Never> = ["1", "x", "3"].publisher.compactMap { Int($0) }
        let recorder = RecordingSubscriber<Int, Never>()
        parsed.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3), .completion(.finished)])
    }
}
