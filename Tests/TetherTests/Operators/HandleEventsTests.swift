import Tether
import TetherTesting
import XCTest

final class HandleEventsTests: TetherTestCase {
    func testEachHookRunsJustBeforeTheEventIsPassedOn() {
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(
            demand: .max(2), demandPerValue: { $0 == 2 ? .max(3) : .none })
        var log: [String] = []
        // Each hook notes how much the other side had already seen, which proves the order.
        publisher.handleEvents(
            receiveSubscription: { log.append("subscription \($0) downstream=\(recorder.events.count)") },
            receiveOutput: { log.append("output \($0) downstream=\(recorder.events.count)") },
            receiveCompletion: { log.append("completion \($0) downstream=\(recorder.events.count)") },
            receiveCancel: { log.append("cancel upstream=\(publisher.subscription?.events.count ?? -1)") },
            receiveRequest: { log.append("request \($0) upstream=\(publisher.subscription?.events.count ?? -1)") }
        ).subscribe(recorder)

        XCTAssertEqual(publisher.send(1), [.none])
        XCTAssertEqual(publisher.send(2), [.max(3)])
        publisher.send(completion: .failure(TestError(id: 5)))

        XCTAssertEqual(
            log,
            [
                "subscription RecordingSubscription downstream=0",
                "request max(2) upstream=0",
                "output 1 downstream=1",
                "output 2 downstream=2",
                "request max(3) upstream=1",
                "completion failure(TestError(5)) downstream=3",
            ])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 5)))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["HandleEvents"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2))])
    }

    func testCancelRunsTheHookThenCancelsUpstreamAndLaterSignalsPassWithoutHooks() throws {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        var log: [String] = []
        publisher.handleEvents(
            receiveOutput: { log.append("output \($0)") },
            receiveCompletion: { _ in log.append("completion") },
            receiveCancel: { log.append("cancel upstream=\(publisher.subscription?.events ?? [])") },
            receiveRequest: { log.append("request \($0)") }
        ).subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)

        subscription.cancel()
        subscription.cancel()
        subscription.request(.max(1))
        // As Combine's: after the end, signals still reach the downstream, but no hook runs.
        XCTAssertEqual(publisher.send(7), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(log, ["request max(1)", "cancel upstream=[.requested(max(1))]"])
        XCTAssertEqual(recorder.events, [.subscription, .value(7), .completion(.finished)])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .cancelled])
        recorder.cancel()
    }

    func testDemandReturnedAfterACancelRunsNoHookEvenDuringTheSubscriptionsHandOver() {
        for source in ["handed over", "later"] {
            let subject = source == "handed over" ? CurrentValueSubject<Int, Never>(1) : nil
            let later = PassthroughSubject<Int, Never>()
            var log: [String] = []
            let upstream = subject?.eraseToAnyPublisher() ?? later.eraseToAnyPublisher()
            var subscription: (any Subscription)?
            upstream.handleEvents(
                receiveOutput: { log.append("output \($0)") },
                receiveCancel: { log.append("cancel") },
                receiveRequest: { log.append("request \($0)") }
            ).subscribe(
                AnySubscriber(
                    receiveSubscription: {
                        subscription = $0
                        $0.request(.unlimited)
                    },
                    receiveValue: { _ in
                        subscription?.cancel()
                        return .max(1)
                    },
                    receiveCompletion: { _ in log.append("completion") }))
            later.send(1)
            XCTAssertEqual(log, ["request unlimited", "output 1", "cancel"], source)
            // The subscription holds its subscriber for life, whose closure holds it back.
            subscription = nil
        }
    }

    func testAllHooksAreOptional() {
        let recorder = RecordingSubscriber<Int, Never>()
        (1...3).publisher.handleEvents().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testCancelFromInsideReceiveOutputStopsDelivery() {
        let recorder = RecordingSubscriber<Int, Never>()
        var cancels = 0
        (1...5).publisher
            .handleEvents(receiveOutput: { if $0 == 2 { recorder.cancel() } }, receiveCancel: { cancels += 1 })
            .subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        XCTAssertEqual(cancels, 1)
    }

    func testReleasesDownstreamAndHooksOnCancelWhileUpstreamStillHoldsIt() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            publisher.handleEvents(
                receiveSubscription: { [token] _ in _ = token },
                receiveOutput: { [token] _ in _ = token },
                receiveCompletion: { [token] _ in _ = token },
                receiveCancel: { [token] in _ = token },
                receiveRequest: { [token] _ in _ = token }
            ).subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNil(weakToken)
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testReleasesDownstreamAndHooksOnCompletion() {
        let publisher = RecordingPublisher<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        weak var weakToken: Token?
        var subscription: (any Subscription)?
        do {
            let token = Token()
            weakToken = token
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            publisher.handleEvents(
                receiveCancel: { [token] in _ = token },
                receiveRequest: { [token] _ in _ = token }
            ).subscribe(recorder)
            subscription = recorder.subscription
            publisher.send(completion: .finished)
        }
        XCTAssertNotNil(subscription, "the test holds the subscription on purpose")
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertNil(weakToken)
        subscription = nil
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }

    func testDescriptionAndMirror() throws {
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        publisher.handleEvents().subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)
        XCTAssertEqual(String(describing: subscription), "HandleEvents")
        XCTAssertEqual(Mirror(reflecting: subscription).children.count, 0)
        recorder.cancel()
    }

    func testCancelRacingWithValuesDeliversAPrefixThenStops() {
        for _ in 0..<50 {
            let publisher = RecordingPublisher<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            let cancels = AtomicCounter()
            publisher.handleEvents(receiveCancel: { cancels.increment() }).subscribe(recorder)
            DispatchQueueStandIn.concurrentPerform(iterations: 2) { index in
                if index == 0 {
                    for value in 0..<200 { publisher.send(value) }
                } else {
                    recorder.cancel()
                }
            }
            let values = recorder.values
            XCTAssertEqual(values, Array(0..<values.count))
            XCTAssertEqual(cancels.value, 1)
            XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
            XCTAssertEqual(publisher.send(1_000), [.none])
        }
    }

    func testEarlySignalsFollowCombineOperatorByOperator() {
        func early<P: Publisher>(_ make: (ManualPublisher<Int, Never>) -> P) -> (Subscribers.Demand?, [String])
        where P.Failure == Never {
            let publisher = ManualPublisher<Int, Never>()
            let recorder = RecordingSubscriber<P.Output, Never>(demand: .none) { _ in .max(4) }
            make(publisher).subscribe(recorder)
            let demand = publisher.subscriber?.receive(3)
            publisher.subscriber?.receive(completion: .finished)
            publisher.release()
            return (demand, recorder.history)
        }
        let handled = early { $0.handleEvents() }
        XCTAssertEqual(handled.0, .max(4))
        XCTAssertEqual(handled.1, [".value(3)", ".completion(.finished)"])
        let printed = early { $0.print("", to: Silent()) }
        XCTAssertEqual(printed.0, .max(4))
        XCTAssertEqual(printed.1, [".value(3)", ".completion(.finished)"])
        let collected = early { $0.collect(2) }
        XCTAssertEqual(collected.0, Subscribers.Demand.none)
        XCTAssertEqual(collected.1, [".completion(.finished)"])
        let measured = early { $0.measureInterval(using: ImmediateScheduler.shared) }
        XCTAssertEqual(measured.0, Subscribers.Demand.none)
        XCTAssertEqual(measured.1, [])
    }

    /// The operator's own subscription, cancelled before its upstream's subscription arrives:
    /// Combine runs the cancel hook, then takes the subscription normally when it comes, asking
    /// and cancelling nothing of it.
    func testACancelBeforeTheSubscriptionRunsTheHookAndTheSubscriptionIsTakenLater() throws {
        final class Holding: Publisher {
            typealias Output = Int
            typealias Failure = Never
            var subscriber: Any?
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                self.subscriber = subscriber
            }
        }
        let publisher = Holding()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        var log: [String] = []
        publisher.handleEvents(
            receiveSubscription: { _ in log.append("subscription") }, receiveCancel: { log.append("cancel") }
        ).subscribe(recorder)
        let operatorSubscription = try XCTUnwrap(publisher.subscriber as? any Subscription)
        let subscriber = try XCTUnwrap(publisher.subscriber as? any Subscriber<Int, Never>)

        operatorSubscription.cancel()
        let upstream = RecordingSubscription()
        subscriber.receive(subscription: upstream)

        XCTAssertEqual(log, ["cancel", "subscription"])
        XCTAssertEqual(upstream.events, [])
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.cancel()
        XCTAssertEqual(upstream.events, [.cancelled], "the subscription taken later is the one a cancel reaches")
    }
}

/// Swallows what `print` writes.
private struct Silent: TextOutputStream {
    mutating func write(_ string: String) {}
}
