import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

final class TimeOperatorMarbleTests: TetherTestCase {
    func testReceiveOnDeliversEverythingOnTheSchedulerInOrder() {
        let scheduler = DispatchQueue.test
        let upstream = scheduler.marbles("-a-b(cd)|")
        let recording = scheduler.record(upstream.receive(on: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-a-b(cd)|")
        XCTAssertEqual(upstream.subscriptionEvents, [MarbleSubscriptionEvent(tick: 0, event: .requested(.unlimited))])
    }

    func testReceiveOnHoldsDeliveryUntilTheSchedulerRuns() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.receive(on: scheduler).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testReceiveOnRequestsTheDemandReturnedAfterDelivery() {
        let scheduler = DispatchQueue.test
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { _ in .max(2) })
        upstream.receive(on: scheduler).subscribe(recorder)
        upstream.send(1)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        scheduler.advance()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .requested(.max(2))])
        recorder.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .requested(.max(2)), .cancelled])
        upstream.releaseSubscribers()
    }

    func testReceiveOnCancelDropsWhatIsPendingUnlessTheUpstreamHadCompleted() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        let running = RecordingSubscriber<Int, Never>()
        subject.receive(on: scheduler).subscribe(running)
        subject.send(1)
        running.cancel()
        let completed = RecordingSubscriber<Int, Never>()
        Just(2).receive(on: scheduler).subscribe(completed)
        completed.cancel()
        scheduler.run()
        XCTAssertEqual(running.events, [.subscription])
        XCTAssertEqual(completed.events, [.subscription, .value(2), .completion(.finished)])
    }

    func testSubscribeOnSubscribesRequestsAndCancelsOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let upstream = scheduler.marbles("-a-b-c|")
        let recording = scheduler.record(upstream.subscribe(on: scheduler))
        XCTAssertEqual(upstream.subscriptionEvents, [])
        scheduler.advance(by: .seconds(3))
        XCTAssertEqual(upstream.subscriptionEvents, [MarbleSubscriptionEvent(tick: 0, event: .requested(.unlimited))])
        recording.cancel()
        XCTAssertEqual(upstream.subscriptionEvents.count, 1)
        scheduler.advance()
        XCTAssertEqual(upstream.subscriptionEvents.last, MarbleSubscriptionEvent(tick: 3, event: .cancelled))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-a-b")
    }

    func testDelayShiftsValuesAndCompletion() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("-a-b|").delay(for: .seconds(2), scheduler: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "---a-b|")
    }

    func testDelayShiftsFailuresToo() {
        let scheduler = DispatchQueue.test
        let upstream = scheduler.marbles("a#", error: TestError(id: 1))
        let recording = scheduler.record(upstream.delay(for: .seconds(3), scheduler: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "---a#")
    }

    func testDebounceEmitsTheLatestValueAfterAQuietPeriodAndDropsThePendingOneOnCompletion() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(
            scheduler.marbles("ab-c---d|").debounce(for: .seconds(2), scheduler: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-----c--|")
    }

    func testDebounceDropsValuesWithoutDemand() {
        let scheduler = DispatchQueue.test
        let upstream = scheduler.marbles("a---b---c--|")
        let recording = scheduler.record(upstream.debounce(for: .seconds(1), scheduler: scheduler), demand: .max(1))
        scheduler.advance(by: .seconds(5))
        recording.request(.max(1))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-a-------c-|")
        XCTAssertEqual(upstream.subscriptionEvents, [MarbleSubscriptionEvent(tick: 0, event: .requested(.unlimited))])
    }

    func testThrottleLatestEmitsTheFirstValueAtOnceThenTheMostRecentPerInterval() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(
            scheduler.marbles("abc---d-e|").throttle(for: .seconds(3), scheduler: scheduler, latest: true))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "a--c--d--(e|)")
    }

    func testThrottleFirstKeepsTheFirstValueOfEachInterval() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(
            scheduler.marbles("abc---d-e|").throttle(for: .seconds(3), scheduler: scheduler, latest: false))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "a--b--d--(e|)")
    }

    func testTimeoutFailsWithTheCustomErrorAndCancelsTheUpstream() {
        let scheduler = DispatchQueue.test
        let upstream = scheduler.marbles("-a---b|", error: TestError(id: 1))
        let recording = scheduler.record(
            upstream.timeout(.seconds(2), scheduler: scheduler, customError: { TestError(id: 9) }))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-a-#")
        XCTAssertEqual(
            upstream.subscriptionEvents,
            [
                MarbleSubscriptionEvent(tick: 0, event: .requested(.unlimited)),
                MarbleSubscriptionEvent(tick: 3, event: .cancelled),
            ])
    }

    func testTimeoutFinishesWithoutACustomError() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("---a|").timeout(.seconds(2), scheduler: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "--|")
    }

    func testTimeoutPassesAStreamThatKeepsUp() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("-a-b-c|").timeout(.seconds(2), scheduler: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.diagram(), "-a-b-c|")
    }

    /// A timeout whose subscriber takes its subscription and, before it returns, lets
    /// `runClock` move the scheduler past the interval; the history of what the subscriber saw.
    private func timeOutWhileTheSubscriberTakesItsSubscription(
        runClock:
            @escaping @Sendable (TestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>)
            -> Void
    ) -> (history: [String], upstream: [SubscriptionEvent]) {
        let scheduler = DispatchQueue.test
        let box = UncheckedBox(scheduler)
        let upstream = RecordingPublisher<Int, Never>()
        let history = Mutex<[String]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { _ in
                history.withLock { $0.append("subscription begins") }
                runClock(box.value)
                history.withLock { $0.append("subscription ends") }
            },
            receiveValue: { value in
                history.withLock { $0.append("value \(value)") }
                return .none
            },
            receiveCompletion: { completion in history.withLock { $0.append("\(completion)") } })
        upstream.timeout(.seconds(1), scheduler: scheduler).subscribe(subscriber)
        upstream.send(0)
        scheduler.advance()
        defer { upstream.releaseSubscribers() }
        return (history.withLock { $0 }, upstream.subscription?.events ?? [])
    }

    func testTimeoutRunningOutOnAnotherThreadWhileTheSubscriberTakesItsSubscriptionCompletesItAfterwards() {
        // Combine's timer thread waits on the lock Combine holds around `receive(subscription:)`.
        let outcome = timeOutWhileTheSubscriberTakesItsSubscription { scheduler in
            let ran = DispatchSemaphore(value: 0)
            let box = UncheckedBox(scheduler)
            Thread {
                box.value.advance(by: .seconds(1))
                ran.signal()
            }.start()
            ran.wait()
        }
        XCTAssertEqual(outcome.history, ["subscription begins", "subscription ends", "finished"])
        XCTAssertEqual(outcome.upstream, [.cancelled])
    }

    func testTimeoutRunningOutBeneathTheSubscriptionsDeliveryOnItsThreadCompletesAtOnce() {
        // A scheduler the subscriber runs from inside `receive(subscription:)`: Combine's lock
        // around the subscriber is recursive, so the completion arrives nested.
        let outcome = timeOutWhileTheSubscriberTakesItsSubscription { $0.advance(by: .seconds(1)) }
        XCTAssertEqual(outcome.history, ["subscription begins", "finished", "subscription ends"])
        XCTAssertEqual(outcome.upstream, [.cancelled])
    }

    func testMeasureIntervalEmitsTheTimeSinceSubscriptionThenBetweenValues() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("-a--b|").measureInterval(using: scheduler))
        scheduler.run()
        XCTAssertEqual(recording.values, [.seconds(1), .seconds(3)])
        XCTAssertEqual(recording.diagram { _ in "x" }, "-x--x|")
    }

    func testCollectByTimePublishesWhatGatheredEachPeriod() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("ab-c-de-|").collect(.byTime(scheduler, .seconds(3))))
        scheduler.run()
        XCTAssertEqual(recording.diagram { $0.joined() }, "---(ab)--(cde)-|")
    }

    func testCollectByTimeOrCountPublishesAFullGroupAtOnce() {
        let scheduler = DispatchQueue.test
        let upstream = scheduler.marbles("abc----|")
        let recording = scheduler.record(upstream.collect(.byTimeOrCount(scheduler, .seconds(3), 2)), demand: .max(5))
        scheduler.run()
        XCTAssertEqual(recording.diagram { $0.joined() }, "-(ab)-c---|")
        XCTAssertEqual(upstream.subscriptionEvents, [MarbleSubscriptionEvent(tick: 0, event: .requested(.max(10)))])
    }

    /// Observed against Apple's Combine (the "Using Combine" book's throttle tests, iOS 14): the
    /// value a `@Published` property or a `CurrentValueSubject` sends as soon as it is asked is
    /// published, whichever value `latest` keeps, because the subscriber's demand is there
    /// before the upstream is asked.
    func testThrottlePublishesTheValueTheUpstreamSendsWhenFirstAsked() {
        for latest in [true, false] {
            let scheduler = DispatchQueue.test
            let subject = CurrentValueSubject<Int, Never>(-1)
            var events: [String] = []
            let recorder = RecordingSubscriber<Int, Never>(demand: .unlimited)
            subject.handleEvents(receiveRequest: { events.append("upstream asked \($0)") })
                .throttle(for: .seconds(1), scheduler: scheduler, latest: latest)
                .handleEvents(receiveSubscription: { _ in events.append("downstream subscribed") })
                .subscribe(recorder)
            scheduler.advance()
            subject.send(1)
            scheduler.advance(by: .seconds(1))
            XCTAssertEqual(recorder.events, [.subscription, .value(-1), .value(1)], "latest: \(latest)")
            XCTAssertEqual(events, ["downstream subscribed", "upstream asked unlimited"], "latest: \(latest)")
            subject.send(completion: .finished)
            scheduler.run()
        }
    }

    /// Observed against Apple's Combine (CombineX's `VersioningCollectByTimeSpec`, Combine of
    /// iOS 13.3 and later): demand returned from a group the timer published is not asked of the
    /// upstream, demand returned from a full group is (`count` values per group).
    func testCollectByTimeOrCountAsksTheUpstreamOnlyForDemandReturnedFromFullGroups() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<Int, Never>()
        var requests: [Subscribers.Demand] = []
        var groups: [[Int]] = []
        let subscriber = AnySubscriber<[Int], Never>(
            receiveSubscription: { $0.request(.max(2)) },
            receiveValue: { group in
                groups.append(group)
                if group.contains(0) { return .max(1) }
                if group.contains(2) { return .max(5) }
                return .none
            },
            receiveCompletion: { _ in })
        subject.handleEvents(receiveRequest: { requests.append($0) })
            .collect(.byTimeOrCount(scheduler, .seconds(1), 2))
            .subscribe(subscriber)
        for value in 0..<100 {
            if value.isMultiple(of: 3) { scheduler.advance(by: .seconds(1)) }
            subject.send(value)
        }
        scheduler.advance(by: .seconds(5))
        XCTAssertEqual(groups, [[0, 1], [2], [3, 4], [5]])
        XCTAssertEqual(requests, [.max(4), .max(2)])
        subject.send(completion: .finished)
        scheduler.run()
    }

    /// Observed against Apple's Combine (CombineX's `CollectByTimeSpec`): `.byTime` asks the
    /// upstream for one value on each request of the subscriber, whatever it asked for, and
    /// returns one more from every value.
    func testCollectByTimeAsksTheUpstreamForOneValueAtATime() {
        let scheduler = DispatchQueue.test
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<[Int], Never>(demand: .max(2))
        upstream.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(upstream.send(1), [.max(1)])
        XCTAssertEqual(upstream.send(2), [.max(1)])
        scheduler.advance(by: .seconds(1))
        recorder.request(.max(5))
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .requested(.max(1))])
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2])])
        upstream.send(completion: .finished)
        scheduler.run()
        XCTAssertEqual(recorder.events, [.subscription, .value([1, 2]), .completion(.finished)])
    }

    func testCollectByTimePublishesTheRestBeforeFinishing() {
        let scheduler = DispatchQueue.test
        let recording = scheduler.record(scheduler.marbles("ab|").collect(.byTime(scheduler, .seconds(5))))
        scheduler.run()
        XCTAssertEqual(recording.diagram { $0.joined() }, "--(ab|)")
    }
}
