import Tether
import TetherTesting
import XCTest

/// Races on the combining operators: upstreams sending from two threads at once.
final class CombiningRacesTests: TetherTestCase {
    private typealias Upstream = PassthroughSubject<Int, TestError>

    private struct Round<Output> {
        let a = Upstream()
        let b = Upstream()
        let subscriber: RaceSubscriber<Output, TestError>
    }

    func testMergeOfTwoUpstreamsSendingFromTwoThreadsNeverOverlaps() {
        Race.run(
            setup: { () -> Round<Int> in
                let round = Round<Int>(subscriber: RaceSubscriber(demand: .unlimited))
                round.a.merge(with: round.b).subscribe(round.subscriber)
                return round
            },
            { round in for value in 0..<3 { round.a.send(value) } },
            { round in for value in 10..<13 { round.b.send(value) } },
            check: { round in
                let values = round.subscriber.values
                XCTAssertEqual(values.sorted(), [0, 1, 2, 10, 11, 12])
                XCTAssertEqual(values.filter { $0 < 10 }, [0, 1, 2], "each upstream's order is kept")
                XCTAssertEqual(round.subscriber.overlaps, 0)
                round.subscriber.cancel()
            })
    }

    func testMergeWithLimitedDemandRacingDeliversExactlyTheDemand() {
        Race.run(
            setup: { () -> Round<Int> in
                let round = Round<Int>(subscriber: RaceSubscriber(demand: .max(2)))
                round.a.merge(with: round.b).subscribe(round.subscriber)
                return round
            },
            { round in round.a.send(1) },
            { round in
                round.b.send(2); round.subscriber.request(.max(1))
            },
            check: { round in
                XCTAssertEqual(round.subscriber.values.sorted(), [1, 2])
                XCTAssertEqual(round.subscriber.overlaps, 0)
                round.subscriber.cancel()
            })
    }

    func testMergeCompletionsRacingFinishExactlyOnceAfterTheValues() {
        Race.run(
            setup: { () -> Round<Int> in
                let round = Round<Int>(subscriber: RaceSubscriber(demand: .unlimited))
                round.a.merge(with: round.b).subscribe(round.subscriber)
                return round
            },
            { round in
                round.a.send(1); round.a.send(completion: .finished)
            },
            { round in
                round.b.send(2); round.b.send(completion: .finished)
            },
            check: { round in
                XCTAssertEqual(round.subscriber.completions, 1)
                XCTAssertEqual(round.subscriber.values.sorted(), [1, 2])
                if case .completion = round.subscriber.events.last {} else { XCTFail("completion is not last") }
                XCTAssertEqual(round.subscriber.overlaps, 0)
            })
    }

    func testZipOfUpstreamsSendingFromTwoThreadsPairsInOrderWithoutOverlap() {
        Race.run(
            setup: { () -> Round<String> in
                let round = Round<String>(subscriber: RaceSubscriber(demand: .unlimited))
                round.a.zip(round.b) { "\($0)-\($1)" }.subscribe(round.subscriber)
                return round
            },
            { round in for value in 0..<3 { round.a.send(value) } },
            { round in for value in 0..<3 { round.b.send(value) } },
            check: { round in
                XCTAssertEqual(round.subscriber.values, ["0-0", "1-1", "2-2"])
                XCTAssertEqual(round.subscriber.overlaps, 0)
                round.subscriber.cancel()
            })
    }

    func testCombineLatestOfUpstreamsSendingFromTwoThreadsNeverOverlaps() {
        Race.run(
            setup: { () -> Round<Int> in
                let round = Round<Int>(subscriber: RaceSubscriber(demand: .unlimited))
                round.a.combineLatest(round.b) { $0 + $1 }.subscribe(round.subscriber)
                round.a.send(0)
                round.b.send(0)
                return round
            },
            { round in for value in 1...3 { round.a.send(value) } },
            { round in for value in 1...3 { round.b.send(10 * value) } },
            check: { round in
                XCTAssertEqual(round.subscriber.values.count, 7, "one combination per value once both have one")
                XCTAssertEqual(round.subscriber.values.last, 33)
                XCTAssertEqual(round.subscriber.overlaps, 0)
                round.subscriber.cancel()
            })
    }

    // A value sent while the subscriber is busy with another upstream's value, on another thread,
    // with no demand left, does not wait for the busy delivery: demand is weighed first (the order
    // OpenCombine's flatMap and zip take, demand under the lock before the downstream's lock), so
    // a subscriber that waits inside `receive(_:)` for that sender does not deadlock. A merge
    // keeps the value for the demand the busy delivery returns; zip and combine-latest ask their
    // upstreams only for what is demanded, so the subject drops it.

    func testMergeKeepsAValueThatFindsNoDemandWithoutWaitingForTheBusySubscriber() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        SubjectDeliveryChecks.assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
            subscribe: { a.merge(with: b).subscribe($0) },
            send: { $0 == 1 ? a.send(1) : b.send($0) },
            after: { _ in }, expected: [1, 2])
    }

    func testCombineLatestValueThatFindsNoDemandDoesNotWaitForTheBusySubscriber() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        SubjectDeliveryChecks.assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
            subscribe: {
                a.combineLatest(b) { $0 + $1 }.subscribe($0)
                a.send(0)
            },
            // 0 + 1 from the other thread, then 1 + 1 from this one, which finds no demand; once
            // the busy delivery has returned demand, 2 + 1 goes out.
            send: { $0 == 1 ? b.send(1) : a.send(1) },
            after: { _ in a.send(2) }, expected: [1, 3])
    }

    func testZipValuesThatFindNoDemandDoNotWaitForTheBusySubscriber() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        SubjectDeliveryChecks.assertASendWithoutDemandDoesNotWaitForTheBusySubscriber(
            subscribe: {
                a.zip(b) { $0 + $1 }.subscribe($0)
                a.send(0)
            },
            // The pair (0, 1) from the other thread, then (1, 1) from this one, which finds no
            // demand; once the busy delivery has returned demand, (2, 2) goes out.
            send: { value in
                if value == 1 {
                    b.send(1)
                } else {
                    a.send(1)
                    b.send(1)
                }
            },
            after: { _ in
                a.send(2)
                b.send(2)
            }, expected: [1, 4])
    }
}
