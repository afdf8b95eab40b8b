import Dispatch
import Tether
import TetherTesting
import XCTest

/// Races on `receive(on:)` and `delay`, whose upstream link and queue of deliveries share one
/// lock. A concurrent queue runs the scheduled actions of one stream at the same time, so the
/// line, not the scheduler, must keep deliveries in order and one at a time. The hand-over of the
/// subscription is raced for every time operator that can deliver during it: `receive(on:)`,
/// `delay`, `timeout` and `collect(.byTime…)`.
final class TimeOperatorRacesTests: TetherTestCase {
    private let queue = DispatchQueue(label: "time-operator-races", attributes: .concurrent)

    private typealias Subscribed = (PassthroughSubject<Int, TestError>, RaceSubscriber<Int, TestError>)

    private func subscribed(
        _ operate: (PassthroughSubject<Int, TestError>) -> AnyPublisher<Int, TestError>
    ) -> Subscribed {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = RaceSubscriber<Int, TestError>(demand: .unlimited)
        operate(subject).subscribe(subscriber)
        return (subject, subscriber)
    }

    private var operators: [(String, (PassthroughSubject<Int, TestError>) -> AnyPublisher<Int, TestError>)] {
        let queue = queue
        return [
            ("receive(on:)", { $0.receive(on: queue).eraseToAnyPublisher() }),
            ("delay", { $0.delay(for: .zero, scheduler: queue).eraseToAnyPublisher() }),
        ]
    }

    /// Waits until every action scheduled so far has run.
    private func flush() {
        queue.sync(flags: .barrier) {}
    }

    func testNothingIsDeliveredWhileTheSubscriberIsStillTakingItsSubscription() {
        // The subscriber asks for everything from inside `receive(subscription:)` and lingers
        // there: the queue runs the deliveries that request scheduled, but a subscriber is called
        // one signal at a time, so they wait for it to return.
        let queue = queue
        let operators: [(String, (Publishers.Sequence<[Int], Never>) -> AnyPublisher<Int, Never>)] = [
            ("receive(on:)", { $0.receive(on: queue).eraseToAnyPublisher() }),
            ("delay", { $0.delay(for: .zero, scheduler: queue).eraseToAnyPublisher() }),
            ("timeout", { $0.timeout(.seconds(5), scheduler: queue).eraseToAnyPublisher() }),
            (
                "collect(.byTimeOrCount)",
                { $0.collect(.byTimeOrCount(queue, .seconds(5), 1)).map { $0[0] }.eraseToAnyPublisher() }
            ),
        ]
        for (name, operate) in operators {
            let subscriber = LingeringSubscriber()
            operate([1, 2].publisher).subscribe(subscriber)
            XCTAssertEqual(subscriber.finished.wait(timeout: .now() + 5), .success, name)
            XCTAssertEqual(subscriber.events, ["subscription", "1", "2", "finished"], name)
        }
    }

    func testATickWhileTheSubscriberIsStillTakingItsSubscriptionLeavesTheGroupForTheNextTick() {
        // The upstream sends its value as soon as it is asked, from inside
        // `receive(subscription:)`, and the timer ticks on the queue meanwhile.
        let subscriber = LingeringSubscriber()
        Just(1).append(Empty(completeImmediately: false))
            .collect(.byTime(queue, .milliseconds(5)))
            .map { $0[0] }
            .prefix(1)
            .subscribe(subscriber)
        XCTAssertEqual(subscriber.finished.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(subscriber.events, ["subscription", "1", "finished"])
    }

    func testTwoSendersValuesArriveEachInOrderAndOneAtATime() {
        for (name, operate) in operators {
            Race.run(
                rounds: 500,
                setup: { subscribed(operate) },
                { subject, _ in (1...3).forEach(subject.send) },
                { subject, _ in (4...6).forEach(subject.send) },
                check: { _, subscriber in
                    flush()
                    let values = subscriber.values
                    XCTAssertEqual(values.sorted(), Array(1...6), name)
                    XCTAssertEqual(values.filter { $0 <= 3 }, [1, 2, 3], name)
                    XCTAssertEqual(values.filter { $0 > 3 }, [4, 5, 6], name)
                    XCTAssertEqual(subscriber.overlaps, 0, name)
                    subscriber.cancel()
                })
        }
    }

    func testCancelRacingSendsDeliversAPrefixAndAtMostTheValueInFlight() {
        for (name, operate) in operators {
            Race.run(
                rounds: 500,
                setup: { subscribed(operate) },
                { subject, _ in (1...5).forEach(subject.send) },
                { _, subscriber in subscriber.cancel() },
                check: { _, subscriber in
                    flush()
                    let values = subscriber.values
                    XCTAssertEqual(values, Array((1...5).prefix(values.count)), name)
                    // A value already taken off the line when the cancel came may still arrive.
                    XCTAssertLessThanOrEqual(subscriber.signalsAfterCancel, 1, name)
                    XCTAssertEqual(subscriber.overlaps, 0, name)
                    XCTAssertEqual(subscriber.completions, 0, name)
                })
        }
    }

    func testCompletionRacingSendsComesLastAndOnce() {
        for (name, operate) in operators {
            Race.run(
                rounds: 500,
                setup: { subscribed(operate) },
                { subject, _ in (1...3).forEach(subject.send) },
                { subject, _ in subject.send(completion: .failure(TestError(id: 1))) },
                check: { _, subscriber in
                    flush()
                    let events = subscriber.events
                    XCTAssertEqual(subscriber.completions, 1, name)
                    if case .completion = events.last {} else { XCTFail("\(name): completion is not last: \(events)") }
                    XCTAssertEqual(subscriber.values, Array((1...3).prefix(subscriber.values.count)), name)
                    XCTAssertEqual(subscriber.overlaps, 0, name)
                })
        }
    }

    func testCancelRacingCompletionEndsWithAtMostTheCompletion() {
        for (name, operate) in operators {
            Race.run(
                rounds: 500,
                setup: { subscribed(operate) },
                { subject, _ in subject.send(completion: .finished) },
                { _, subscriber in subscriber.cancel() },
                check: { _, subscriber in
                    flush()
                    XCTAssertLessThanOrEqual(subscriber.completions, 1, name)
                    XCTAssertEqual(subscriber.values, [], name)
                    XCTAssertEqual(subscriber.overlaps, 0, name)
                })
        }
    }
}

/// Asks for everything from inside `receive(subscription:)`, then stays there until a value
/// arrives or a tenth of a second has passed, and records whether a signal came meanwhile.
private final class LingeringSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    let combineIdentifier = CombineIdentifier()
    let finished = DispatchSemaphore(value: 0)
    private let delivered = DispatchSemaphore(value: 0)
    private let state = Locked((taking: false, events: [String]()))

    var events: [String] { state.withLock { $0.events } }

    func receive(subscription: any Subscription) {
        state.withLock {
            $0.taking = true
            $0.events.append("subscription")
        }
        subscription.request(.unlimited)
        _ = delivered.wait(timeout: .now() + .milliseconds(100))
        state.withLock { $0.taking = false }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        state.withLock { $0.events.append($0.taking ? "\(input) during the subscription" : "\(input)") }
        delivered.signal()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        state.withLock { $0.events.append($0.taking ? "finished during the subscription" : "finished") }
        finished.signal()
    }
}
