import Foundation
import Tether
import TetherTesting
import XCTest

/// Races on `flatMap`: values from two inner publishers on two threads at once.
final class FlatMapRacesTests: TetherTestCase {
    private struct Round {
        let outer = RecordingPublisher<Int, Never>()
        let inners = [RecordingPublisher<Int, Never>(), RecordingPublisher<Int, Never>()]
        let subscriber: RaceSubscriber<Int, Never>

        init(demand: Subscribers.Demand) {
            subscriber = RaceSubscriber(demand: demand)
            let inners = self.inners
            outer.flatMap { inners[$0] }.subscribe(subscriber)
            outer.send(0)
            outer.send(1)
        }
    }

    func testValuesFromTwoInnersOnTwoThreadsAreDeliveredSeriallyAndAllArrive() {
        Race.run(
            setup: { Round(demand: .unlimited) },
            { $0.inners[0].send(1) },
            { $0.inners[1].send(2) },
            check: { round in
                XCTAssertEqual(round.subscriber.values.sorted(), [1, 2])
                XCTAssertEqual(round.subscriber.overlaps, 0)
                round.subscriber.cancel()
            })
    }

    func testTwoInnersRacingForDemandOfOneDeliverOneAndKeepTheOtherForTheNextRequest() {
        Race.run(
            setup: { Round(demand: .max(1)) },
            { $0.inners[0].send(1) },
            { $0.inners[1].send(2) },
            check: { round in
                XCTAssertEqual(round.subscriber.values.count, 1)
                round.subscriber.request(.max(1))
                XCTAssertEqual(round.subscriber.values.sorted(), [1, 2])
                XCTAssertEqual(round.subscriber.overlaps, 0)
                round.subscriber.cancel()
            })
    }

    func testARequestRacingAWaitingValueDeliversItExactlyOnce() {
        Race.run(
            setup: { Round(demand: .none) },
            { $0.inners[0].send(1) },
            { $0.subscriber.request(.max(2)) },
            check: { round in
                XCTAssertEqual(round.subscriber.values, [1])
                round.inners[1].send(2)
                XCTAssertEqual(round.subscriber.values, [1, 2])
                XCTAssertEqual(round.subscriber.overlaps, 0)
                round.subscriber.cancel()
            })
    }

    func testInnersAndUpstreamFinishingRacingAValueFinishOnceAndLast() {
        Race.run(
            setup: { Round(demand: .unlimited) },
            { $0.inners[0].send(1) },
            {
                $0.inners[1].send(completion: .finished); $0.outer.send(completion: .finished)
            },
            check: { round in
                round.inners[0].send(completion: .finished)
                XCTAssertEqual(round.subscriber.values, [1])
                XCTAssertEqual(round.subscriber.completions, 1)
                if case .completion = round.subscriber.events.last {
                } else {
                    XCTFail("completion is not last: \(round.subscriber.events)")
                }
                XCTAssertEqual(round.subscriber.overlaps, 0)
            })
    }

    /// A value an inner sends from another thread while the downstream is receiving the stream's
    /// failure would come after it: it is dropped. One sent from inside that call, on its own
    /// thread, still follows the failure while demand lasts, as Combine's does.
    func testAValueFromAnotherThreadDuringTheFailureIsDroppedAndOneFromInsideItFollows() {
        let outer = RecordingPublisher<Int, TestError>()
        let inners = [RecordingPublisher<Int, TestError>(), RecordingPublisher<Int, TestError>()]
        let subscriber = SendingOnCompletion {
            let sent = DispatchSemaphore(value: 0)
            Thread {
                _ = inners[1].send(2)
                sent.signal()
            }.start()
            sent.wait()
            _ = inners[1].send(3)
        }
        outer.flatMap { inners[$0] }.subscribe(subscriber)
        _ = outer.send(0)
        _ = outer.send(1)
        _ = inners[0].send(1)
        inners[0].send(completion: .failure(TestError(id: 1)))
        XCTAssertEqual(subscriber.events, ["1", "failure", "3"])
    }

    func testAnInnersValueThatFindsNoDemandIsKeptWithoutWaitingForTheBusySubscriber() {
        let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
        let inners = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
        // Kept for the demand the busy delivery returns. OpenCombine's flatMap, modelled on
        // Combine's, weighs a value against demand under its lock before it takes the
        // downstream's lock.
        SubjectDeliveryChecks.assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
            subscribe: {
                outer.flatMap { $0 }.subscribe($0)
                outer.send(inners[0])
                outer.send(inners[1])
            },
            send: { $0 == 1 ? inners[0].send(1) : inners[1].send($0) },
            after: { _ in }, expected: [1, 2])
    }
}

/// Records what it receives, asking for everything, and runs `onCompletion` inside
/// `receive(completion:)`.
private final class SendingOnCompletion: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = TestError

    let combineIdentifier = CombineIdentifier()
    private let onCompletion: @Sendable () -> Void
    private(set) var events: [String] = []

    init(onCompletion: @escaping @Sendable () -> Void) {
        self.onCompletion = onCompletion
    }

    func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        events.append("\(input)")
        return .none
    }

    func receive(completion: Subscribers.Completion<TestError>) {
        events.append(completion == .finished ? "finished" : "failure")
        onCompletion()
    }
}
