import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

final class AsyncSequencePublisherTests: TetherTestCase {
    func testPublishesEveryElementThenFinishes() {
        let recorder = RecordingSubscriber<Int, Never>()
        AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }.publisher.subscribe(recorder)
        XCTAssertTrue(eventually { recorder.completion != nil })
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testFailureTypeFollowsTheSequence() {
        let nonThrowing: Publishers.AsyncSequencePublisher<AsyncStream<Int>> = AsyncStream<Int> { $0.finish() }
            .publisher
        let throwing = AsyncThrowingStream<Int, any Error> { $0.finish(throwing: TestError(id: 4)) }.publisher
        XCTAssertTrue(type(of: nonThrowing).Failure.self == Never.self)
        let recorder = RecordingSubscriber<Int, any Error>()
        throwing.subscribe(recorder)
        XCTAssertTrue(eventually { recorder.completion != nil })
        guard case .failure(let error as TestError)? = recorder.completion else {
            return XCTFail("expected the stream's failure, got \(String(describing: recorder.completion))")
        }
        XCTAssertEqual(error, TestError(id: 4))
    }

    func testPullsOnlyWhatWasRequested() {
        let pulls = AtomicCounter()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        CountingAsyncSequence(limit: 100, pulls: pulls).publisher.subscribe(recorder)
        usleep(20_000)
        XCTAssertEqual(pulls.value, 0, "no demand, no pull")
        recorder.request(.max(2))
        XCTAssertTrue(eventually { recorder.values.count == 2 })
        usleep(20_000)
        XCTAssertEqual(pulls.value, 2)
        XCTAssertEqual(recorder.values, [0, 1])
        recorder.request(.max(1))
        XCTAssertTrue(eventually { recorder.values.count == 3 })
        usleep(20_000)
        XCTAssertEqual(pulls.value, 3)
        recorder.cancel()
    }

    func testDemandReturnedFromReceiveIsHonoured() {
        let pulls = AtomicCounter()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { $0 < 3 ? .max(1) : .none })
        CountingAsyncSequence(limit: 100, pulls: pulls).publisher.subscribe(recorder)
        XCTAssertTrue(eventually { recorder.values.count == 4 })
        usleep(20_000)
        XCTAssertEqual(recorder.values, [0, 1, 2, 3])
        XCTAssertEqual(pulls.value, 4)
        recorder.cancel()
    }

    func testCancelCancelsTheIteratingTask() {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let terminated = AtomicCounter()
        continuation.onTermination = { _ in terminated.increment() }
        let recorder = RecordingSubscriber<Int, Never>()
        stream.publisher.subscribe(recorder)
        continuation.yield(1)
        XCTAssertTrue(eventually { recorder.values == [1] })
        recorder.cancel()
        XCTAssertTrue(eventually { terminated.value == 1 }, "the task's cancellation ends the stream")
        continuation.yield(2)
        usleep(10_000)
        XCTAssertEqual(recorder.values, [1])
    }

    func testCancelBeforeAnyRequestStartsNothing() {
        let pulls = AtomicCounter()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        CountingAsyncSequence(limit: 5, pulls: pulls).publisher.subscribe(recorder)
        recorder.cancel()
        recorder.request(.max(3))
        usleep(20_000)
        XCTAssertEqual(pulls.value, 0)
        XCTAssertEqual(recorder.events, [.subscription])
    }

    func testEachSubscriptionIteratesAfresh() {
        let sequence = CountingAsyncSequence(limit: 3, pulls: AtomicCounter())
        runAsync {
            let first = try await sequence.publisher.collectValues()
            let second = try await sequence.publisher.collectValues()
            XCTAssertEqual(first, [0, 1, 2])
            XCTAssertEqual(second, [0, 1, 2])
        }
    }

    func testRoundTripThroughValues() {
        runAsync {
            var received: [Int] = []
            for await value in CountingAsyncSequence(limit: 4, pulls: AtomicCounter()).publisher.map({ $0 * 2 }).values
            {
                received.append(value)
            }
            XCTAssertEqual(received, [0, 2, 4, 6])
        }
    }
}
