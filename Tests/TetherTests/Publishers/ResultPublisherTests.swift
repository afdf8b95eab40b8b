import Tether
import TetherTesting
import XCTest

final class ResultPublisherTests: TetherTestCase {
    func testSuccessIsDeliveredOnDemandThenFinishes() {
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        Result<Int, TestError>.success(6).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(6), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Once"])
    }

    func testFailureIsSentImmediatelyUponSubscription() {
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        Result<Int, TestError>.failure(TestError(id: 2)).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 2)))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Empty"])
    }

    func testInitialisers() {
        XCTAssertEqual(Result<Int, TestError>.Publisher(3).result, .success(3))
        XCTAssertEqual(Result<Int, TestError>.Publisher(TestError(id: 1)).result, .failure(TestError(id: 1)))
        XCTAssertEqual(Result<Int, TestError>.Publisher(.success(4)), Result<Int, TestError>.success(4).publisher)
    }

    func testCancelBeforeDemandReleasesTheSubscriber() {
        weak var weakRecorder: RecordingSubscriber<Int, TestError>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
            weakRecorder = recorder
            Result<Int, TestError>.Publisher(1).subscribe(recorder)
            subscription = recorder.subscription
        }
        subscription?.cancel()
        XCTAssertNil(weakRecorder, "a cancelled subscription must let go of its subscriber")
        subscription = nil
    }

    func testMapTransformsSuccessAndKeepsFailure() {
        let mapped: Result<String, TestError>.Publisher = Result<Int, TestError>.Publisher(2).map { "\($0)" }
        XCTAssertEqual(mapped.result, .success("2"))
        let failed = Result<Int, TestError>.Publisher(TestError(id: 8)).map { $0 + 1 }
        XCTAssertEqual(failed.result, .failure(TestError(id: 8)))
    }

    func testTryMapCatchesThrownErrorsAndKeepsFailure() {
        let mapped: Result<Int, any Error>.Publisher = Result<Int, TestError>.Publisher(2).tryMap { $0 * 10 }
        XCTAssertEqual(try mapped.result.get(), 20)
        let thrown = Result<Int, TestError>.Publisher(2).tryMap { _ -> Int in throw TestError(id: 6) }
        XCTAssertThrowsError(try thrown.result.get()) { XCTAssertEqual($0 as? TestError, TestError(id: 6)) }
        let kept = Result<Int, TestError>.Publisher(TestError(id: 5)).tryMap { $0 }
        XCTAssertThrowsError(try kept.result.get()) { XCTAssertEqual($0 as? TestError, TestError(id: 5)) }
    }

    func testTryMapFailureReachesTheSubscriberAsAnyError() {
        let recorder = RecordingSubscriber<Int, any Error>()
        Just(1).tryMap { _ -> Int in throw TestError(id: 3) }.subscribe(recorder)
        XCTAssertEqual(recorder.values, [])
        guard case .failure(let error)? = recorder.completion else { return XCTFail("expected a failure") }
        XCTAssertEqual(error as? TestError, TestError(id: 3))
    }
}
