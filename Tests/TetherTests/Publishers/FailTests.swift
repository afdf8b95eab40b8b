import Tether
import TetherTesting
import XCTest

final class FailTests: TetherTestCase {
    func testFailsImmediatelyWithoutDemand() {
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        Fail<Int, TestError>(error: TestError(id: 1)).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Empty"])
    }

    func testOutputTypeInitialiserAndEveryRunFails() {
        let fail = Fail(outputType: String.self, failure: TestError(id: 2))
        XCTAssertEqual(fail.error, TestError(id: 2))
        for _ in 0..<2 {
            let recorder = RecordingSubscriber<String, TestError>()
            fail.subscribe(recorder)
            XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 2)))])
        }
    }

    func testEqualityComparesErrors() {
        XCTAssertEqual(Fail<Int, TestError>(error: TestError(id: 1)), Fail(error: TestError(id: 1)))
        XCTAssertNotEqual(Fail<Int, TestError>(error: TestError(id: 1)), Fail(error: TestError(id: 2)))
    }
}
