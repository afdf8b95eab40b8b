import Tether
import TetherTesting
import XCTest

/// `switchToLatest` over `Just` inners, erased to `AnyPublisher` or not, hands each value over
/// without subscribing to the `Just` when the downstream has demand. Every scenario here runs
/// three times, over `Just` inners, over the same inners erased, and over `Just`s behind
/// `Deferred` (which are subscribed to), and the histories must be the same, reentrant calls from
/// inside the downstream included.
final class SwitchToLatestValueAtHandTests: TetherTestCase {
    /// A subscriber that records what it sees, and runs a test's hook on each value.
    private final class Probe: Subscriber, @unchecked Sendable {
        typealias Input = Int
        typealias Failure = Never

        var events: [String] = []
        var subscription: (any Subscription)?
        let initial: Subscribers.Demand
        var onValue: (Int) -> Subscribers.Demand = { _ in .none }

        init(initial: Subscribers.Demand) {
            self.initial = initial
        }

        func receive(subscription: any Subscription) {
            events.append("subscription")
            self.subscription = subscription
            if initial > 0 { subscription.request(initial) }
        }

        func receive(_ input: Int) -> Subscribers.Demand {
            events.append("value \(input)")
            return onValue(input)
        }

        func receive(completion: Subscribers.Completion<Never>) {
            events.append("completion \(completion)")
        }
    }

    /// Runs `script` over a `switchToLatest` of `Just` inners, of erased ones (whose history must
    /// be the same) and of subscribed ones.
    private func histories(
        initial: Subscribers.Demand, file: StaticString = #filePath, line: UInt = #line,
        _ script: (RecordingPublisher<Int, Never>, Probe) -> Void
    ) -> (atHand: [String], subscribed: [String]) {
        func run<Inner: Publisher>(_ inner: @escaping (Int) -> Inner) -> [String]
        where Inner.Output == Int, Inner.Failure == Never {
            // Not a subject: a subject would hold a reentrant send back until its delivery returns.
            let outer = RecordingPublisher<Int, Never>()
            let probe = Probe(initial: initial)
            outer.map(inner).switchToLatest().subscribe(probe)
            script(outer, probe)
            probe.subscription?.cancel()
            probe.subscription = nil
            outer.releaseSubscribers()
            return probe.events
        }
        let atHand = run { Just($0) }
        XCTAssertEqual(run { Just($0).eraseToAnyPublisher() }, atHand, "erased inners", file: file, line: line)
        return (atHand, run { value in Deferred { Just(value) } })
    }

    func testWithDemandEachValueIsDeliveredAndTheStreamFinishesAfterTheOuter() {
        let (atHand, subscribed) = histories(initial: .unlimited) { outer, _ in
            _ = outer.send(1)
            _ = outer.send(2)
            outer.send(completion: .finished)
        }
        XCTAssertEqual(atHand, ["subscription", "value 1", "value 2", "completion finished"])
        XCTAssertEqual(atHand, subscribed)
    }

    func testWithoutDemandTheInnerWaitsForTheNextRequest() {
        let (atHand, subscribed) = histories(initial: .max(1)) { outer, probe in
            _ = outer.send(1)
            _ = outer.send(2)
            _ = outer.send(3)
            probe.subscription?.request(.max(1))
            outer.send(completion: .finished)
        }
        XCTAssertEqual(atHand, ["subscription", "value 1", "value 3", "completion finished"])
        XCTAssertEqual(atHand, subscribed)
    }

    func testDemandReturnedForAValueCounts() {
        let (atHand, subscribed) = histories(initial: .max(1)) { outer, probe in
            probe.onValue = { $0 == 1 ? .max(1) : .none }
            _ = outer.send(1)
            _ = outer.send(2)
            _ = outer.send(3)
        }
        XCTAssertEqual(atHand, ["subscription", "value 1", "value 2"])
        XCTAssertEqual(atHand, subscribed)
    }

    func testTheOuterFinishingDuringADeliveryFinishesAfterIt() {
        let (atHand, subscribed) = histories(initial: .unlimited) { outer, probe in
            probe.onValue = { _ in
                outer.send(completion: .finished)
                probe.events.append("outer finished")
                return .none
            }
            _ = outer.send(1)
        }
        // After the value's delivery, not inside it: the inner has yet to complete.
        XCTAssertEqual(atHand, ["subscription", "value 1", "outer finished", "completion finished"])
        XCTAssertEqual(atHand, subscribed)
    }

    func testANewInnerSentDuringADeliveryReplacesTheOne() {
        let (atHand, subscribed) = histories(initial: .unlimited) { outer, probe in
            probe.onValue = { value in
                if value == 1 { _ = outer.send(2) }
                return .none
            }
            _ = outer.send(1)
            outer.send(completion: .finished)
        }
        XCTAssertEqual(atHand, ["subscription", "value 1", "value 2", "completion finished"])
        XCTAssertEqual(atHand, subscribed)
    }

    func testACancelOrARequestDuringADelivery() {
        let (atHand, subscribed) = histories(initial: .max(1)) { outer, probe in
            probe.onValue = { value in
                if value == 1 { probe.subscription?.request(.max(1)) }
                if value == 2 { probe.subscription?.cancel() }
                return .none
            }
            _ = outer.send(1)
            _ = outer.send(2)
            _ = outer.send(3)
            outer.send(completion: .finished)
        }
        XCTAssertEqual(atHand, ["subscription", "value 1", "value 2"])
        XCTAssertEqual(atHand, subscribed)
    }
}

/// The values `switchToLatest` reads out of `Just` inners where they lie: references and
/// multi-word values arrive whole and are released once.
final class SwitchToLatestJustValueTests: TetherTestCase {
    private final class Payload {
        let id: Int
        init(id: Int) { self.id = id }
    }

    func testReferencesAndStringsArriveWholeAndAreReleased() {
        weak var weakPayload: Payload?
        var received: [String] = []
        do {
            let outer = PassthroughSubject<Int, Never>()
            let payloads = outer.map { id -> Just<Payload> in
                let payload = Payload(id: id)
                weakPayload = payload
                return Just(payload)
            }
            let strings = outer.setFailureType(to: TestError.self).map {
                Publishers.SetFailureType<Just<String>, TestError>(upstream: Just(String(repeating: "x", count: $0)))
            }
            let first = payloads.switchToLatest().sink { received.append("payload \($0.id)") }
            let second = strings.switchToLatest().sink(
                receiveCompletion: { _ in }, receiveValue: { received.append("string \($0.count)") })
            outer.send(40)
            outer.send(3)
            first.cancel()
            second.cancel()
        }
        XCTAssertEqual(received, ["payload 40", "string 40", "payload 3", "string 3"])
        XCTAssertNil(weakPayload)
    }
}
