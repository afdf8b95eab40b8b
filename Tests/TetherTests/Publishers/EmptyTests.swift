import Tether
import TetherTesting
import XCTest

final class EmptyTests: TetherTestCase {
    func testFinishesImmediatelyWithTheEmptySubscription() {
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        Empty<Int, TestError>().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Empty"])
    }

    func testNeverCompletesWhenAskedNotTo() {
        let recorder = RecordingSubscriber<Int, Never>()
        Empty(completeImmediately: false, outputType: Int.self, failureType: Never.self).subscribe(recorder)
        recorder.request(.max(3))
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.cancel()
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testTypedInitialiserDefaultsToCompletingImmediately() {
        let empty = Empty(outputType: String.self, failureType: TestError.self)
        XCTAssertTrue(empty.completeImmediately)
        let recorder = RecordingSubscriber<String, TestError>()
        empty.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testEqualityComparesCompleteImmediately() {
        XCTAssertEqual(Empty<Int, Never>(), Empty<Int, Never>(completeImmediately: true))
        XCTAssertNotEqual(Empty<Int, Never>(), Empty<Int, Never>(completeImmediately: false))
    }
}
