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
}
