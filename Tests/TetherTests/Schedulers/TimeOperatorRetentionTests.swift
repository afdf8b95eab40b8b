import Foundation
import Tether
import TetherTesting
import XCTest

/// How long `receive(on:)`, `delay`, `debounce` and `timeout` keep their subscriber, as Combine's
/// do: the subscription holds it for its whole life, and work scheduled on the scheduler holds
/// the subscription until it has run (a timer: until the scheduler lets go of it). Each test
/// logs in one timeline what the subscriber received, what the test did, and when the subscriber
/// was released.
final class TimeOperatorRetentionTests: TetherTestCase {
    func testReceiveOnKeepsACancelledSubscriberUntilThePendingDeliveryHasRun() {
        let scheduler = DispatchQueue.test
        XCTAssertEqual(
            timelineOfACancel(on: scheduler, clock: scheduler, sending: [1], steps: [0]) { $0.receive(on: $1) },
            ["subscription", "cancel", "advance 0s", "released"])
    }

    func testDelayKeepsACancelledSubscriberUntilThePendingDeliveryHasRun() {
        let scheduler = DispatchQueue.test
        XCTAssertEqual(
            timelineOfACancel(on: scheduler, clock: scheduler, sending: [1], steps: [1, 1]) {
                $0.delay(for: .seconds(2), scheduler: $1)
            },
            ["subscription", "cancel", "advance 1s", "advance 1s", "released"])
    }

    /// The cancel removes the clock from this scheduler; the value's delivery still waits.
    func testTimeoutKeepsACancelledSubscriberUntilThePendingDeliveryHasRun() {
        let scheduler = DispatchQueue.test
        XCTAssertEqual(
            timelineOfACancel(on: scheduler, clock: scheduler, sending: [1], steps: [0]) {
                $0.timeout(.seconds(5), scheduler: $1)
            },
            ["subscription", "cancel", "advance 0s", "released"])
    }

    func testDebounceAndTimeoutKeepACancelledSubscriberUntilTheSchedulerLetsGoOfTheirTimers() {
        let lazy = LazilyCancellingScheduler(DispatchQueue.test)
        let expected = ["subscription", "cancel", "advance 4s", "advance 1s", "released"]
        XCTAssertEqual(
            timelineOfACancel(on: lazy, clock: lazy.base, sending: [1], steps: [4, 1]) {
                $0.debounce(for: .seconds(5), scheduler: $1)
            }, expected)
        XCTAssertEqual(
            timelineOfACancel(on: lazy, clock: lazy.base, sending: [1], steps: [4, 1]) {
                $0.timeout(.seconds(5), scheduler: $1)
            }, expected)
    }

    func testDebounceAndTimeoutReleaseACancelledSubscriberWithTheTimersTheSchedulerRemoves() {
        let scheduler = DispatchQueue.test
        let expected = ["subscription", "cancel", "released"]
        XCTAssertEqual(
            timelineOfACancel(on: scheduler, clock: scheduler, sending: [1], steps: []) {
                $0.debounce(for: .seconds(2), scheduler: $1)
            }, expected)
        XCTAssertEqual(
            timelineOfACancel(on: scheduler, clock: scheduler, sending: [], steps: []) {
                $0.timeout(.seconds(5), scheduler: $1)
            }, expected)
    }

    func testReceiveOnAndDelayHoldTheirSubscriberAfterAFailureAsLongAsTheSubscriptionLives() {
        let scheduler = DispatchQueue.test
        let expected = ["subscription", "failure(TestError(1))", "subscription dropped", "released"]
        XCTAssertEqual(timelineOfAFailure(scheduler) { $0.receive(on: scheduler) }, expected)
        XCTAssertEqual(timelineOfAFailure(scheduler) { $0.delay(for: .seconds(1), scheduler: scheduler) }, expected)
    }

    /// Subscribes a ``LoggedSubscriber`` asking for everything to the operator `make` builds over
    /// a subject and `scheduler`, sends `values`, cancels, lets go of the subscriber, then moves
    /// `clock` on by each of `steps` (in seconds), noting each.
    /// - Returns: The timeline, once nothing is left scheduled.
    private func timelineOfACancel<S: Scheduler, P: Publisher>(
        on scheduler: S, clock: TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>,
        sending values: [Int], steps: [Int], _ make: (PassthroughSubject<Int, TestError>, S) -> P
    ) -> [String] {
        let subject = PassthroughSubject<Int, TestError>()
        let timeline = Timeline()
        do {
            let subscriber = LoggedSubscriber<P.Output, P.Failure>(timeline)
            make(subject, scheduler).subscribe(subscriber)
            for value in values { subject.send(value) }
            timeline.note("cancel")
            subscriber.cancel()
        }
        for step in steps {
            timeline.note("advance \(step)s")
            clock.advance(by: .seconds(step))
        }
        XCTAssertEqual(clock.scheduledCount, 0)
        return timeline.entries
    }

    /// Subscribes a ``LoggedSubscriber`` that asks for nothing to the operator `make` builds over
    /// a subject, keeps its subscription outside it, fails the subject and runs `scheduler`, lets
    /// go of the subscriber, then of the subscription.
    /// - Returns: The timeline.
    private func timelineOfAFailure<P: Publisher>(
        _ scheduler: TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>,
        _ make: (PassthroughSubject<Int, TestError>) -> P
    ) -> [String] {
        let subject = PassthroughSubject<Int, TestError>()
        let timeline = Timeline()
        var subscription: (any Subscription)?
        do {
            let subscriber = LoggedSubscriber<P.Output, P.Failure>(timeline, demand: .none)
            make(subject).subscribe(subscriber)
            subscription = subscriber.subscription
            subject.send(completion: .failure(TestError(id: 1)))
            scheduler.run()
        }
        XCTAssertNotNil(subscription)
        timeline.note("subscription dropped")
        subscription = nil
        return timeline.entries
    }
}

/// What happened, in order, as lines of text. Used from one thread.
private final class Timeline: @unchecked Sendable {
    private(set) var entries: [String] = []

    func note(_ entry: String) { entries.append(entry) }
}

/// A subscriber that logs its events and its release in a ``Timeline``. It asks for `demand` on
/// subscription and holds its subscription until the completion or its cancel, as a
/// well-behaved subscriber does. Used from one thread.
private final class LoggedSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    let timeline: Timeline
    let demand: Subscribers.Demand
    private(set) var subscription: (any Subscription)?

    init(_ timeline: Timeline, demand: Subscribers.Demand = .unlimited) {
        self.timeline = timeline
        self.demand = demand
    }

    deinit { timeline.note("released") }

    func receive(subscription: any Subscription) {
        timeline.note("subscription")
        self.subscription = subscription
        if demand > 0 { subscription.request(demand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        timeline.note("value(\(input))")
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: timeline.note("finished")
        case .failure(let error): timeline.note("failure(\(error))")
        }
        subscription = nil
    }

    func cancel() {
        subscription?.cancel()
        subscription = nil
    }
}

/// A test scheduler whose cancelled timers stay queued until they fall due, and are dropped then
/// without running (as a scheduler that checks a cancelled flag when a timer fires does, like
/// the virtual-time scheduler of OpenCombine's suite). One-shot work passes straight through.
/// Used from one thread.
private final class LazilyCancellingScheduler: Scheduler, @unchecked Sendable {
    typealias Base = TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
    typealias SchedulerTimeType = Base.SchedulerTimeType
    typealias SchedulerOptions = Base.SchedulerOptions

    /// A timer's cancelled flag and its registration with the base scheduler.
    private final class Timer: @unchecked Sendable {
        var cancelled = false
        var registration: (any Cancellable)?
    }

    let base: Base

    init(_ base: Base) { self.base = base }

    var now: SchedulerTimeType { base.now }
    var minimumTolerance: SchedulerTimeType.Stride { base.minimumTolerance }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(options: options, action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let timer = Timer()
        timer.registration = base.schedule(after: date, interval: interval, tolerance: tolerance, options: options) {
            guard timer.cancelled else { return action() }
            timer.registration?.cancel()
            timer.registration = nil
        }
        return AnyCancellable { timer.cancelled = true }
    }
}
