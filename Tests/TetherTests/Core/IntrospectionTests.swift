import Tether
import TetherTesting
import XCTest

final class IntrospectionTests: TetherTestCase {
    func testSubscribeIsReportedAndADirectReceiveIsNot() {
        let log = IntrospectionLog()
        let publisher = RecordingPublisher<Int, Never>()
        let direct = RecordingSubscriber<Int, Never>(demand: .none)
        let subscribed = RecordingSubscriber<Int, Never>(demand: .none)

        log.enable()
        defer { log.disable() }
        publisher.receive(subscriber: direct)
        publisher.subscribe(subscribed)
        publisher.send(1)
        log.disable()

        XCTAssertEqual(
            log.history,
            subscribing("RecordingPublisher<Int, Never>") + [
                "willReceive(RecordingSubscriber, 1)",
                "didReceive(RecordingSubscriber, 1, max(0))",
            ])
        XCTAssertEqual(direct.history, [".subscription", ".value(1)"])
        XCTAssertEqual(subscribed.history, [".subscription", ".value(1)"])
    }

    func testASinkOnASubjectIsReportedAsASinkSubscribed() {
        let log = IntrospectionLog()
        let subject = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(0)
        log.enable()
        defer { log.disable() }
        let cancellables = [subject.sink { _ in }, current.eraseToAnyPublisher().sink { _ in }]
        log.disable()
        let subscribes = log.history.filter { $0.hasPrefix("willSubscribe") }
        XCTAssertEqual(
            subscribes,
            [
                "willSubscribe(PassthroughSubject<Int, Never>, Sink)",
                "willSubscribe(AnyPublisher<Int, Never>, Sink)",
            ])
        cancellables.forEach { $0.cancel() }
    }

    func testEverySignalIsReportedBeforeAndAfterItIsForwarded() {
        let log = IntrospectionLog()
        let publisher = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(2)) { .max($0) }

        log.enable()
        defer { log.disable() }
        publisher.subscribe(recorder)
        publisher.send(1)
        publisher.send(completion: .failure(TestError(id: 7)))
        log.disable()

        XCTAssertEqual(
            log.history,
            [
                "willSubscribe(RecordingPublisher<Int, TestError>, RecordingSubscriber)",
                "willReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
                "willRequest(RecordingSubscription, max(2))",
                "didRequest(RecordingSubscription, max(2))",
                "didReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
                "didSubscribe(RecordingPublisher<Int, TestError>, RecordingSubscriber)",
                "willReceive(RecordingSubscriber, 1)",
                "didReceive(RecordingSubscriber, 1, max(1))",
                "willComplete(RecordingSubscriber, failure(TestError(7)))",
                "didComplete(RecordingSubscriber, failure(TestError(7)))",
            ])
        XCTAssertEqual(recorder.history, [".subscription", ".value(1)", ".completion(.failure(TestError(7)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(2))])
    }

    func testCancelIsReportedAndForwardedEveryTime() {
        let log = IntrospectionLog()
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)

        log.enable()
        defer { log.disable() }
        publisher.subscribe(recorder)
        let subscription = recorder.subscription
        subscription?.cancel()
        subscription?.cancel()
        log.disable()

        XCTAssertEqual(
            log.history,
            subscribing("RecordingPublisher<Int, Never>") + [
                "willCancel(RecordingSubscription)",
                "didCancel(RecordingSubscription)",
                "willCancel(RecordingSubscription)",
                "didCancel(RecordingSubscription)",
            ])
        XCTAssertEqual(publisher.subscription?.events, [.cancelled, .cancelled])
    }

    func testSubscriptionMadeWhileNothingIsEnabledIsNeverReported() {
        let log = IntrospectionLog()
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)

        publisher.subscribe(recorder)
        log.enable()
        defer { log.disable() }
        recorder.request(.max(1))
        publisher.send(1)
        publisher.send(completion: .finished)
        log.disable()

        XCTAssertEqual(log.history, [])
        XCTAssertEqual(recorder.history, [".subscription", ".value(1)", ".completion(.finished)"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["RecordingSubscription"])
    }

    func testEachEventGoesToTheObjectsEnabledWhenItHappens() {
        let first = IntrospectionLog()
        let second = IntrospectionLog()
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)

        XCTAssertEqual([first.isEnabled, second.isEnabled], [false, false])
        first.enable()
        defer { first.disable() }
        publisher.subscribe(recorder)
        publisher.send(1)
        second.enable()
        defer { second.disable() }
        XCTAssertEqual([first.isEnabled, second.isEnabled], [true, true])
        publisher.send(2)
        first.disable()
        publisher.send(3)
        second.disable()
        XCTAssertEqual([first.isEnabled, second.isEnabled], [false, false])
        publisher.send(4)

        XCTAssertEqual(
            first.history,
            subscribing("RecordingPublisher<Int, Never>") + [
                "willReceive(RecordingSubscriber, 1)",
                "didReceive(RecordingSubscriber, 1, max(0))",
                "willReceive(RecordingSubscriber, 2)",
                "didReceive(RecordingSubscriber, 2, max(0))",
            ])
        XCTAssertEqual(
            second.history,
            [
                "willReceive(RecordingSubscriber, 2)",
                "didReceive(RecordingSubscriber, 2, max(0))",
                "willReceive(RecordingSubscriber, 3)",
                "didReceive(RecordingSubscriber, 3, max(0))",
            ])
        XCTAssertEqual(recorder.history, [".subscription", ".value(1)", ".value(2)", ".value(3)", ".value(4)"])
    }

    func testEnablingTwiceAndDisablingWhenNotEnabledChangeNothing() {
        let log = IntrospectionLog()
        let publisher = RecordingPublisher<Int, Never>()

        log.disable()
        XCTAssertFalse(log.isEnabled)
        log.enable()
        log.enable()
        defer { log.disable() }
        XCTAssertTrue(log.isEnabled)
        publisher.send(completion: .finished)
        publisher.subscribe(RecordingSubscriber<Int, Never>(demand: .none))
        log.disable()
        XCTAssertFalse(log.isEnabled)

        XCTAssertEqual(
            log.history,
            subscribing("RecordingPublisher<Int, Never>"))
    }

    func testInjectedSubscriberAndSubscriptionDescribeAndIdentifyAsWhatTheyWrap() throws {
        let log = IntrospectionLog()
        let publisher = CapturingPublisher()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)

        log.enable()
        defer { log.disable() }
        publisher.subscribe(recorder)
        log.disable()

        let subscriber = try XCTUnwrap(publisher.subscriber)
        XCTAssertFalse(subscriber as AnyObject === recorder)
        XCTAssertFalse(subscriber is AnySubscriber<Int, Never>)
        XCTAssertEqual((subscriber as? any CustomStringConvertible)?.description, "RecordingSubscriber")
        XCTAssertEqual(
            (subscriber as? any CustomCombineIdentifierConvertible)?.combineIdentifier, recorder.combineIdentifier)
        XCTAssertFalse(subscriber is any CustomDebugStringConvertible)
        XCTAssertFalse(subscriber is any CustomReflectable)
        XCTAssertFalse(subscriber is any CustomPlaygroundDisplayConvertible)

        let subscription = try XCTUnwrap(recorder.subscription)
        XCTAssertFalse(subscription is RecordingSubscription)
        XCTAssertEqual((subscription as? any CustomStringConvertible)?.description, "RecordingSubscription")
        XCTAssertEqual(subscription.combineIdentifier, publisher.subscription.combineIdentifier)
        XCTAssertFalse(subscription is any CustomDebugStringConvertible)
        XCTAssertFalse(subscription is any CustomReflectable)
        XCTAssertFalse(subscription is any CustomPlaygroundDisplayConvertible)
    }

    func testEachOperatorStageIsReported() {
        let log = IntrospectionLog()
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)

        log.enable()
        defer { log.disable() }
        let doubled = publisher.map { $0 * 2 }
        doubled.subscribe(recorder)
        publisher.send(3)
        log.disable()

        // Map hands its upstream's subscription on: the recorder is told about the one that
        // the publisher made, and it is wrapped once.
        XCTAssertEqual(
            log.history,
            [
                "willSubscribe(Map<RecordingPublisher<Int, Never>, Int>, RecordingSubscriber)",
                "willSubscribe(RecordingPublisher<Int, Never>, Map)",
                "willReceiveSubscription(Map, RecordingSubscription)",
                "willReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
                "didReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
                "didReceiveSubscription(Map, RecordingSubscription)",
                "didSubscribe(RecordingPublisher<Int, Never>, Map)",
                "didSubscribe(Map<RecordingPublisher<Int, Never>, Int>, RecordingSubscriber)",
                "willReceive(Map, 3)",
                "willReceive(RecordingSubscriber, 6)",
                "didReceive(RecordingSubscriber, 6, max(0))",
                "didReceive(Map, 3, max(0))",
            ])
        recorder.request(.max(1))
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
    }

    func testErasedPublisherWrapsItsSubscriberOnce() {
        let log = IntrospectionLog()
        let publisher = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        let erased = Deferred { publisher }.eraseToAnyPublisher()

        log.enable()
        defer { log.disable() }
        erased.subscribe(recorder)
        recorder.request(.max(1))
        log.disable()

        // The erased publisher hands the injected wrapper to the one it wraps (which is not
        // reported), and `Deferred` subscribes it, erased, to the publisher it makes: the hooks
        // are told about the subscriber it wraps, as an `AnySubscriber`, and it is not wrapped
        // again.
        XCTAssertEqual(
            log.history,
            [
                "willSubscribe(AnyPublisher<Int, Never>, RecordingSubscriber)",
                "willSubscribe(RecordingPublisher<Int, Never>, RecordingSubscriber as AnySubscriber<Int, Never>)",
                "willReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
                "didReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
                "didSubscribe(RecordingPublisher<Int, Never>, RecordingSubscriber as AnySubscriber<Int, Never>)",
                "didSubscribe(AnyPublisher<Int, Never>, RecordingSubscriber)",
                "willRequest(RecordingSubscription, max(1))",
                "didRequest(RecordingSubscription, max(1))",
            ])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
    }
}

/// What an ``IntrospectionLog`` records when a `RecordingSubscriber` that requests nothing is
/// subscribed to a publisher of type `publisher`.
private func subscribing(_ publisher: String) -> [String] {
    [
        "willSubscribe(\(publisher), RecordingSubscriber)",
        "willReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
        "didReceiveSubscription(RecordingSubscriber, RecordingSubscription)",
        "didSubscribe(\(publisher), RecordingSubscriber)",
    ]
}

/// Records each hook as text, naming publishers by type and subscribers and subscriptions by
/// description; a subscriber that is an ``AnySubscriber`` says so.
private final class IntrospectionLog: _Introspection {
    private(set) var history: [String] = []

    private func name<S: Subscriber>(_ subscriber: S) -> String {
        subscriber is AnySubscriber<S.Input, S.Failure>
            ? "\(subscriber) as \(type(of: subscriber))" : "\(subscriber)"
    }

    func willReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        history.append("willSubscribe(\(type(of: publisher)), \(name(subscriber)))")
    }

    func didReceive<Upstream: Publisher, Downstream: Subscriber>(publisher: Upstream, subscriber: Downstream)
    where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
        history.append("didSubscribe(\(type(of: publisher)), \(name(subscriber)))")
    }

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {
        history.append("willReceiveSubscription(\(name(subscriber)), \(subscription))")
    }

    func didReceive<Downstream: Subscriber>(subscriber: Downstream, subscription: any Subscription) {
        history.append("didReceiveSubscription(\(name(subscriber)), \(subscription))")
    }

    func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
        history.append("willReceive(\(name(subscriber)), \(input))")
    }

    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
    ) {
        history.append("didReceive(\(name(subscriber)), \(input), \(resultingDemand))")
    }

    func willReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {
        history.append("willComplete(\(name(subscriber)), \(completion))")
    }

    func didReceive<Downstream: Subscriber>(
        subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
    ) {
        history.append("didComplete(\(name(subscriber)), \(completion))")
    }

    func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
        history.append("willRequest(\(subscription), \(demand))")
    }

    func didRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
        history.append("didRequest(\(subscription), \(demand))")
    }

    func willCancel(subscription: any Subscription) {
        history.append("willCancel(\(subscription))")
    }

    func didCancel(subscription: any Subscription) {
        history.append("didCancel(\(subscription))")
    }
}

/// A publisher that keeps the subscriber it is given, as it was given, and sends it one
/// ``RecordingSubscription``.
private final class CapturingPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    let subscription = RecordingSubscription()
    private(set) var subscriber: Any?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        self.subscriber = subscriber
        subscriber.receive(subscription: subscription)
    }
}
