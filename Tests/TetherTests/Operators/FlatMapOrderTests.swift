import Tether
import TetherTesting
import XCTest

/// One ordered record of what every party around a `flatMap` saw, so that tests can pin the
/// order of calls across the upstream, the inners and the downstream.
private final class Journal {
    private(set) var entries: [String] = []

    func write(_ entry: String) { entries.append(entry) }
}

/// A publisher driven by the test, whose subscription writes each request and cancel to a
/// journal under the publisher's name, and can run a hook on either.
private final class JournalPublisher<Output, Failure: Error>: Publisher {
    private final class Entry: Subscription {
        unowned let publisher: JournalPublisher

        init(_ publisher: JournalPublisher) { self.publisher = publisher }

        func request(_ demand: Subscribers.Demand) {
            publisher.journal.write("\(publisher.name) requested \(demand)")
            publisher.onRequest?(demand)
        }

        func cancel() {
            publisher.journal.write("\(publisher.name) cancelled")
            publisher.onCancel?()
        }
    }

    let name: String
    let journal: Journal
    var onRequest: ((Subscribers.Demand) -> Void)?
    var onCancel: (() -> Void)?
    private var subscriber: AnySubscriber<Output, Failure>?
    private var entry: Entry?

    init(_ name: String, _ journal: Journal) {
        self.name = name
        self.journal = journal
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        journal.write("\(name) subscribed")
        self.subscriber = AnySubscriber(subscriber)
        let entry = Entry(self)
        self.entry = entry
        subscriber.receive(subscription: entry)
    }

    /// Sends `value` whatever the demand; returns what the subscriber asked for.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        subscriber?.receive(value) ?? .none
    }

    func send(completion: Subscribers.Completion<Failure>) {
        subscriber?.receive(completion: completion)
    }

    /// Forgets the subscriber, ending the reference cycle through the subscription.
    func release() {
        subscriber = nil
        entry = nil
    }
}

/// A subscriber that writes what it receives to a journal and can run a hook on each signal.
private final class JournalSubscriber: Subscriber {
    typealias Input = Int
    typealias Failure = TestError

    let journal: Journal
    let initialDemand: Subscribers.Demand
    var onValue: (Int) -> Subscribers.Demand = { _ in .none }
    var onCompletion: () -> Void = {}
    private(set) var subscription: (any Subscription)?
    let combineIdentifier = CombineIdentifier()

    init(_ journal: Journal, demand: Subscribers.Demand) {
        self.journal = journal
        initialDemand = demand
    }

    func receive(subscription: any Subscription) {
        journal.write("downstream got \(subscription)")
        self.subscription = subscription
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        journal.write("downstream got \(input)")
        return onValue(input)
    }

    func receive(completion: Subscribers.Completion<TestError>) {
        journal.write("downstream got \(completion)")
        subscription = nil
        onCompletion()
    }

    /// Cancels the subscription, if still held, and lets go of it.
    func cancel() {
        let taken = subscription
        subscription = nil
        taken?.cancel()
    }
}

/// An upstream, inners (named "inner" when alone, else "inner 0", "inner 1"…) and a downstream,
/// all writing to one journal.
private final class Stage {
    let journal = Journal()
    let outer: JournalPublisher<Int, TestError>
    let inners: [JournalPublisher<Int, TestError>]
    let downstream: JournalSubscriber

    init(inners count: Int, demand: Subscribers.Demand) {
        outer = JournalPublisher("upstream", journal)
        inners = (0..<count).map { [journal] in JournalPublisher(count == 1 ? "inner" : "inner \($0)", journal) }
        downstream = JournalSubscriber(journal, demand: demand)
    }

    /// The only inner.
    var inner: JournalPublisher<Int, TestError> { inners[0] }

    /// Subscribes the downstream to a `flatMap` of the upstream whose values pick the inner.
    func subscribe(maxPublishers: Subscribers.Demand = .unlimited) {
        outer.flatMap(maxPublishers: maxPublishers) { [inners] in inners[$0] }.subscribe(downstream)
    }

    /// The upstream sends a publisher for each inner, in order.
    func sendEveryInner() {
        for index in inners.indices { outer.send(index) }
    }

    /// Cancels whatever still runs, and ends the cycles through the publishers and the hooks.
    func end() {
        downstream.cancel()
        (inners + [outer]).forEach { $0.release() }
        outer.onRequest = nil
        downstream.onValue = { _ in .none }
        downstream.onCompletion = {}
    }
}

/// `flatMap`'s order of calls and its handling of late and reentrant signals, as Combine's.
final class FlatMapOrderTests: TetherTestCase {
    func testTheDownstreamHasItsSubscriptionBeforeTheUpstreamIsSubscribedAndAskedEvenForNone() {
        let stage = Stage(inners: 1, demand: .max(2))
        stage.subscribe(maxPublishers: .none)

        XCTAssertEqual(
            stage.journal.entries, ["downstream got FlatMap", "upstream subscribed", "upstream requested max(0)"])
        stage.end()
    }

    func testAPublisherAndAFinishBeforeTheUpstreamsSubscriptionAreTakenAsAfterIt() {
        let outer = ManualPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        outer.flatMap { Just($0) }.subscribe(recorder)

        XCTAssertEqual(outer.subscriber?.receive(5), Subscribers.Demand.none)
        outer.subscriber?.receive(completion: .finished)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])

        let late = RecordingSubscription()
        outer.subscriber?.receive(subscription: late)
        XCTAssertEqual(late.events, [.cancelled])
        outer.release()
    }

    func testCancelCancelsEveryInnerAndThenTheUpstream() {
        let stage = Stage(inners: 2, demand: .max(1))
        stage.subscribe()
        stage.sendEveryInner()

        stage.downstream.cancel()
        XCTAssertEqual(
            stage.journal.entries,
            [
                "downstream got FlatMap", "upstream subscribed", "upstream requested unlimited",
                "inner 0 subscribed", "inner 0 requested max(1)", "inner 1 subscribed", "inner 1 requested max(1)",
                "inner 0 cancelled", "inner 1 cancelled", "upstream cancelled",
            ])
        stage.end()
    }

    func testAnUpstreamFailureCancelsTheInnersBeforeTheDownstreamHearsOfIt() {
        let stage = Stage(inners: 1, demand: .unlimited)
        stage.subscribe()
        stage.sendEveryInner()

        stage.outer.send(completion: .failure(TestError(id: 1)))
        stage.outer.send(completion: .failure(TestError(id: 2)))
        XCTAssertEqual(
            stage.journal.entries,
            [
                "downstream got FlatMap", "upstream subscribed", "upstream requested unlimited",
                "inner subscribed", "inner requested unlimited", "inner cancelled",
                "downstream got failure(TestError(1))",
            ])
        stage.end()
    }

    func testAnInnerFailureCancelsTheOtherInnersAndLeavesTheUpstreamAlone() {
        let stage = Stage(inners: 3, demand: .unlimited)
        stage.subscribe()
        stage.sendEveryInner()

        stage.inners[1].send(completion: .failure(TestError(id: 4)))
        XCTAssertEqual(stage.outer.send(2), .none, "the stream is over: no more inners")
        stage.inners[0].send(completion: .failure(TestError(id: 5)))
        XCTAssertEqual(
            stage.journal.entries.dropFirst(9),
            ["inner 0 cancelled", "inner 2 cancelled", "downstream got failure(TestError(4))"])
        stage.end()
        XCTAssertEqual(stage.journal.entries.last, "downstream got failure(TestError(4))", "nothing to cancel")
    }

    func testAValueFromAnInnerThatFinishedIsStillDelivered() {
        let outer = RecordingPublisher<Int, TestError>()
        let inners = (0..<2).map { _ in RecordingPublisher<Int, TestError>() }
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(3))
        outer.flatMap { inners[$0] }.subscribe(recorder)
        outer.send(0)
        outer.send(1)
        outer.send(completion: .finished)

        XCTAssertEqual(inners[0].send(1), [.max(1)])
        inners[0].send(completion: .finished)
        XCTAssertEqual(inners[0].send(2), [.none], "nothing to ask of an inner that finished")
        inners[1].send(completion: .finished)

        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(inners[0].subscription?.events, [.requested(.max(1))])
        XCTAssertEqual(outer.subscription?.events, [.requested(.unlimited)])
    }

    func testEveryFinishOfAnInnerAsksABoundedUpstreamForAnotherEvenARepeatedOne() {
        let stage = Stage(inners: 1, demand: .none)
        stage.subscribe(maxPublishers: .max(1))
        stage.sendEveryInner()
        // The inner finishes again from inside each request its finish makes, twice.
        var repeats = 2
        stage.outer.onRequest = { _ in
            guard repeats > 0 else { return }
            repeats -= 1
            stage.inner.send(completion: .finished)
        }
        stage.inner.send(completion: .finished)

        XCTAssertEqual(
            stage.journal.entries,
            [
                "downstream got FlatMap", "upstream subscribed", "upstream requested max(1)", "inner subscribed",
                "inner requested max(1)", "upstream requested max(1)", "upstream requested max(1)",
                "upstream requested max(1)",
            ])
        stage.end()
    }

    func testAValueSentFromInsideTheDownstreamWithDemandToSpareIsTakenAtOnce() {
        let stage = Stage(inners: 2, demand: .max(2))
        var returned: [Subscribers.Demand] = []
        stage.downstream.onValue = { value in
            if value == 10 { returned.append(stage.inners[1].send(20)) }
            return .none
        }
        stage.subscribe()
        stage.sendEveryInner()

        returned.append(stage.inners[0].send(10))
        XCTAssertEqual(returned, [.max(1), .max(1)])
        XCTAssertEqual(
            stage.journal.entries.dropFirst(7), ["downstream got 10", "downstream got 20"],
            "inner 1 was asked through what its send returned, not by a request")
        XCTAssertEqual(stage.inners[1].send(30), .none, "no demand left")
        stage.end()
    }

    func testAValueSentWhileTheDownstreamReceivesTheFailureFollowsItWhileDemandLasts() {
        let stage = Stage(inners: 1, demand: .max(1))
        stage.downstream.onCompletion = {
            XCTAssertEqual(stage.inner.send(1), .none)
            XCTAssertEqual(stage.inner.send(2), .none)
        }
        stage.subscribe()
        stage.sendEveryInner()

        stage.inner.send(completion: .failure(TestError(id: 3)))
        XCTAssertEqual(stage.inner.send(3), .none)
        XCTAssertEqual(
            stage.journal.entries.dropFirst(5), ["downstream got failure(TestError(3))", "downstream got 1"])
        stage.end()
    }

    func testUnlimitedDemandAsksEveryInnerForUnlimitedAfterTheWaitingValuesAreDelivered() throws {
        let stage = Stage(inners: 2, demand: .none)
        stage.subscribe()
        stage.sendEveryInner()
        XCTAssertEqual(stage.inners[1].send(7), .none)

        try XCTUnwrap(stage.downstream.subscription).request(.unlimited)
        XCTAssertEqual(stage.inners[0].send(8), .none)
        XCTAssertEqual(
            stage.journal.entries.dropFirst(7),
            ["downstream got 7", "inner 0 requested unlimited", "inner 1 requested unlimited", "downstream got 8"])
        stage.end()
    }

    func testTheSubscriptionHasNoMirrorChildrenAndAnInnersSubscriberNamesIt() throws {
        let outer = RecordingPublisher<Int, Never>()
        let inner = ManualPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        outer.flatMap { _ in inner }.subscribe(recorder)
        outer.send(0)

        let subscription = try XCTUnwrap(recorder.subscription)
        XCTAssertEqual(String(describing: subscription), "FlatMap")
        XCTAssertEqual(Mirror(reflecting: subscription).children.count, 0)
        let innerSubscriber = try XCTUnwrap(inner.given)
        XCTAssertEqual(String(describing: innerSubscriber), "FlatMap")
        let children = Mirror(reflecting: innerSubscriber).children.map { "\($0.label ?? "-"): \($0.value)" }
        XCTAssertEqual(children, ["parentSubscription: \(subscription.combineIdentifier)"])
        recorder.cancel()
        inner.release()
    }
}
