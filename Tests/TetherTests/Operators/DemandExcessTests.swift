import Tether
import TetherTesting
import XCTest

/// Reactive Streams §1.1 on every fast path: a subscriber never receives more values than it
/// asked for, and what an operator holds for it stays within the operator's documented bound.
final class DemandExcessTests: TetherTestCase {
    /// Counts what it receives against what it asked for; asks only when told to.
    private final class CountingSubscriber<Input>: Subscriber, @unchecked Sendable {
        typealias Failure = Never
        private(set) var requested = 0
        private(set) var received: [Input] = []
        private var subscription: (any Subscription)?

        var excess: Int { max(0, received.count - requested) }

        func receive(subscription: any Subscription) { self.subscription = subscription }

        func receive(_ input: Input) -> Subscribers.Demand {
            received.append(input)
            return .none
        }

        func receive(completion: Subscribers.Completion<Never>) {}

        func request(_ count: Int) {
            requested += count
            subscription?.request(.max(count))
        }

        /// Cancels and lets go of the subscription, as `sink` does: some of Combine's
        /// subscriptions (`switchToLatest`'s) hold their subscriber until released.
        func cancel() {
            subscription?.cancel()
            subscription = nil
        }
    }

    /// Counts the publishers a bounded `flatMap` has asked its upstream for.
    private final class UpstreamDemand: @unchecked Sendable {
        var asked = 0
    }

    func testBoundedFlatMapOfJustTakesNoValueBeyondDemandAndAsksOnlyForWhatItMayHold() {
        let upstreamDemand = UpstreamDemand()
        let subscriber = CountingSubscriber<Int>()
        (0..<1_000).publisher
            .handleEvents(receiveRequest: { upstreamDemand.asked += $0.max ?? 1_000_000 })
            .flatMap(maxPublishers: .max(2)) { Just($0) }
            .subscribe(subscriber)
        XCTAssertEqual(subscriber.received, [])
        XCTAssertEqual(upstreamDemand.asked, 2, "two publishers held, none delivered")
        subscriber.request(3)
        XCTAssertEqual(subscriber.received, [0, 1, 2])
        XCTAssertEqual(upstreamDemand.asked, 5, "each delivered Just makes room for one more")
        subscriber.request(2)
        XCTAssertEqual(subscriber.received, [0, 1, 2, 3, 4])
        XCTAssertEqual(subscriber.excess, 0)
        XCTAssertEqual(upstreamDemand.asked - subscriber.received.count, 2)
        subscriber.cancel()
    }

    func testFlatMapOfJustFromASubjectHoldsAtMostMaxPublishersValues() {
        let subject = PassthroughSubject<Int, Never>()
        let upstreamDemand = UpstreamDemand()
        let subscriber = CountingSubscriber<Int>()
        subject
            .handleEvents(receiveRequest: { upstreamDemand.asked += $0.max ?? 1_000_000 })
            .flatMap(maxPublishers: .max(1)) { Just($0) }
            .subscribe(subscriber)
        subscriber.request(1)
        for value in 0..<100 { subject.send(value) }
        XCTAssertEqual(subscriber.received, [0])
        // Value 1 waits in the one place flatMap may hold; the subject's other values were sent
        // without demand from flatMap, and a subject drops those.
        subscriber.request(5)
        XCTAssertEqual(subscriber.received, [0, 1])
        XCTAssertEqual(subscriber.excess, 0)
        subscriber.cancel()
    }

    func testSwitchToLatestOfJustDeliversNothingBeyondDemandAndKeepsOnlyTheNewest() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = CountingSubscriber<Int>()
        subject.map { Just($0) }.switchToLatest().subscribe(subscriber)
        subscriber.request(1)
        for value in 0..<10 { subject.send(value) }
        XCTAssertEqual(subscriber.received, [0])
        subscriber.request(1)
        XCTAssertEqual(subscriber.received, [0, 9])
        XCTAssertEqual(subscriber.excess, 0)
        subscriber.cancel()
    }

    func testSequenceFusionsDeliverExactlyWhatIsAsked() {
        let subscriber = CountingSubscriber<Int>()
        (0..<1_000).publisher.map { $0 * 2 }.filter { $0 % 3 == 0 }.dropFirst(2).subscribe(subscriber)
        subscriber.request(4)
        XCTAssertEqual(subscriber.received, [12, 18, 24, 30])
        subscriber.request(1)
        XCTAssertEqual(subscriber.received.count, 5)
        XCTAssertEqual(subscriber.excess, 0)
        subscriber.cancel()

        let prefixed = CountingSubscriber<Int>()
        (0..<1_000).publisher.prefix(while: { $0 < 500 }).compactMap { $0 }.subscribe(prefixed)
        prefixed.request(3)
        XCTAssertEqual(prefixed.received, [0, 1, 2])
        prefixed.cancel()
    }

    func testSubjectSendsDeliverNothingBeyondDemand() {
        let passthrough = PassthroughSubject<Int, Never>()
        let first = CountingSubscriber<Int>()
        passthrough.subscribe(first)
        first.request(2)
        for value in 0..<10 { passthrough.send(value) }
        XCTAssertEqual(first.received, [0, 1])

        let current = CurrentValueSubject<Int, Never>(-1)
        let second = CountingSubscriber<Int>()
        current.subscribe(second)
        for value in 0..<10 { current.send(value) }
        second.request(2)
        for value in 10..<20 { current.send(value) }
        XCTAssertEqual(second.received, [9, 10], "the newest value on the first request, then one")
        XCTAssertEqual(first.excess + second.excess, 0)
        first.cancel()
        second.cancel()
    }
}
