import Tether
import TetherTesting
import XCTest

final class FirstLastTests: TetherTestCase {
    func testFirstKeepsTheFirstValueUntilTheFirstRequestHavingCancelledTheUpstream() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        publisher.first().subscribe(recorder)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])

        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.none])
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.unlimited)
        recorder.request(.max(1))
        recorder.cancel()

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
    }

    func testFirstRequestsUnlimitedOnSubscribingThenCancelsUpstreamAndFinishes() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        publisher.first().subscribe(recorder)

        XCTAssertEqual(publisher.send(7), [.none])
        XCTAssertEqual(publisher.send(8), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["First"])
    }

    func testFirstOfEmptyStreamFinishesWithoutValue() {
        let recorder = RecordingSubscriber<Int, Never>()
        Empty<Int, Never>().first().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testFirstWhereSkipsUntilPredicateAccepts() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        publisher.first { $0 > 2 }.subscribe(recorder)

        for value in 1...4 { publisher.send(value) }

        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        // Combine's name for it.
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryFirst"])
    }

    func testTryFirstWhereThrowCancelsUpstreamAndFails() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryFirst { value in
            if value == 2 { throw TestError(id: 2) }
            return false
        }.subscribe(recorder)

        publisher.send(1)
        publisher.send(2)
        publisher.send(3)

        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(2)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryFirstWhere"])
    }

    func testLastDeliversLatestValueWhenUpstreamFinishes() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        publisher.last().subscribe(recorder)

        for value in 1...3 { XCTAssertEqual(publisher.send(value), [.none]) }
        XCTAssertEqual(recorder.events, [.subscription])
        publisher.send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Last"])
    }

    func testLastHoldsValueUntilFirstRequestWhenUpstreamFinishedEarly() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        publisher.last(where: { $0 % 2 == 1 }).subscribe(recorder)

        for value in 1...4 { publisher.send(value) }
        publisher.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))

        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["LastWhere"])
    }

    func testLastPassesFailureAndDropsHeldValue() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>()
        publisher.last().subscribe(recorder)

        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 4)))

        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 4)))])
    }

    func testTryLastWhereThrowFailsWithThrownError() {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, any Error>()
        publisher.tryLast { value in
            if value == 3 { throw TestError(id: 3) }
            return true
        }.subscribe(recorder)

        publisher.send(1)
        publisher.send(3)

        XCTAssertEqual(recorder.history, [".subscription", ".completion(.failure(TestError(3)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["TryLastWhere"])
    }

    func testCancelFromInsideFirstValueSuppressesTheCompletion() {
        let recorder = RecordingSubscriber<Int, Never>()
        let canceller = AnySubscriber<Int, Never>(
            receiveSubscription: { recorder.receive(subscription: $0) },
            receiveValue: { value in
                let demand = recorder.receive(value)
                recorder.cancel()
                return demand
            },
            receiveCompletion: { recorder.receive(completion: $0) })
        [1, 2].publisher.eraseToAnyPublisher().last().subscribe(canceller)

        XCTAssertEqual(recorder.events, [.subscription, .value(2)])
    }

    func testReleasesDownstreamAndPredicateOnCancel() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            publisher.first { [token] _ in
                _ = token; return false
            }.subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNil(weakToken)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testReleasesDownstreamAndPredicateOnCompletion() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            publisher.last { [token] _ in
                _ = token; return true
            }.subscribe(recorder)
            publisher.send(1)
            publisher.send(completion: .finished)
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNil(weakToken)
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testSpecialisationsComputeRightAway() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2, 3].publisher.last().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        let result: Result<Int, TestError>.Publisher = Result<Int, TestError>.Publisher(5).first()
        XCTAssertEqual(result.result, .success(5))
    }
}
