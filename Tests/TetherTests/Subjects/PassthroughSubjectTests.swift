import Tether
import TetherTesting
import XCTest

final class PassthroughSubjectTests: TetherTestCase {
    func testDropsValuesWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        subject.subscribe(recorder)
        subject.send(1)
        recorder.request(.max(1))
        subject.send(2)
        subject.send(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(2)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["PassthroughSubject"])
        recorder.cancel()
    }

    func testBroadcastsToEverySubscriberWithItsOwnDemand() {
        let subject = PassthroughSubject<Int, TestError>()
        let all = RecordingSubscriber<Int, TestError>()
        let one = RecordingSubscriber<Int, TestError>(demand: .max(1))
        subject.subscribe(all)
        subject.subscribe(one)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError(id: 1)))
        subject.send(3)
        subject.send(completion: .finished)
        XCTAssertEqual(all.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(one.events, [.subscription, .value(1), .completion(.failure(TestError(id: 1)))])
    }

    func testLateSubscriberGetsTheCompletionAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(completion: .finished)
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Empty"])
    }

    func testLateSubscriberGetsTheFailureAtOnce() {
        let subject = PassthroughSubject<Int, TestError>()
        subject.send(completion: .failure(TestError(id: 4)))
        let recorder = RecordingSubscriber<Int, TestError>()
        subject.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 4)))])
    }

    func testSubscribersAreServedInTheOrderTheyCameWhenTheFirstLeaves() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        func subscriber(_ name: String) -> AnySubscriber<Int, Never> {
            AnySubscriber(
                receiveSubscription: { $0.request(.unlimited) },
                receiveValue: {
                    log.append("\(name)\($0)"); return .none
                },
                receiveCompletion: { _ in log.append("\(name) done") })
        }
        let first = RecordingSubscriber<Int, Never>()
        subject.subscribe(first)
        subject.subscribe(subscriber("b"))
        subject.subscribe(subscriber("c"))
        subject.send(1)
        first.cancel()
        subject.subscribe(subscriber("d"))
        subject.send(2)
        subject.send(completion: .finished)
        XCTAssertEqual(first.events, [.subscription, .value(1)])
        XCTAssertEqual(log, ["b1", "c1", "b2", "c2", "d2", "b done", "c done", "d done"])
    }

    func testSubscribersKeepTheirOrderAsTheyLeaveDownToOneAndCome() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let a = subject.sink { log.append("a\($0)") }
        let b = subject.sink { log.append("b\($0)") }
        let c = subject.sink { log.append("c\($0)") }
        subject.send(1)
        b.cancel()
        subject.send(2)
        a.cancel()
        subject.send(3)
        let d = subject.sink { log.append("d\($0)") }
        subject.send(4)
        c.cancel()
        subject.send(5)
        d.cancel()
        subject.send(6)
        XCTAssertEqual(log, ["a1", "b1", "c1", "a2", "c2", "c3", "c4", "d4", "d5"])
    }

    /// mattgallagher/CombineExploration's `testReentrancy`, as it runs on Apple's Combine: each
    /// value is recorded after the send it makes, so the nested values are recorded first.
    func testReentrantSendIsDeliveredAtOnceNestedInTheCurrentValue() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [String] = []
        let subscriber = Subscribers.Sink<Int, Never>(
            receiveCompletion: { received.append("\($0)") },
            receiveValue: { value in
                if value < 3 { subject.send(value + 1) }
                received.append("\(value)")
            })
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(completion: .finished)
        XCTAssertEqual(received, ["3", "2", "1", "finished"])
        subscriber.cancel()
    }

    /// A nested value takes the demand left after the outer one, before the outer call returns
    /// more: with one value asked for at a time, a value sent from inside the delivery finds
    /// none and is dropped, as under Combine's recursive lock.
    func testReentrantSendTakesTheDemandLeftBeforeTheOuterCallReturnsMore() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0
                $0.request(.max(1))
            },
            receiveValue: { value in
                log.append("begin \(value)")
                if value == 1 { subject.send(2) }
                log.append("end \(value)")
                return .max(1)
            },
            receiveCompletion: { log.append("\($0)") })
        subject.subscribe(subscriber)
        subject.send(1)
        subject.send(3)
        XCTAssertEqual(log, ["begin 1", "end 1", "begin 3", "end 3"])
        subscription?.cancel()
        subscription = nil
    }

    func testCompletionSentFromInsideReceiveArrivesNestedInTheCurrentValue() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demandPerValue: { value in
            .none
        })
        let relay = AnySubscriber<Int, Never>(
            receiveSubscription: { recorder.receive(subscription: $0) },
            receiveValue: { value in
                subject.send(completion: .finished)
                subject.send(99)
                return recorder.receive(value)
            },
            receiveCompletion: { recorder.receive(completion: $0) })
        subject.subscribe(relay)
        subject.send(1)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished), .value(1)])
    }

    func testCancelDetachesAndReleasesTheSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            subject.subscribe(recorder)
            subject.send(1)
            recorder.cancel()
            subject.send(2)
            XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        }
        XCTAssertNil(weakRecorder)
    }

    func testRequestsUnlimitedFromUpstreamOnceAnySubscriberHasDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = RecordingSubscription()
        subject.send(subscription: upstream)
        XCTAssertEqual(upstream.events, [])
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        subject.subscribe(recorder)
        XCTAssertEqual(upstream.events, [.requested(.unlimited)])
        let second = RecordingSubscription()
        subject.send(subscription: second)
        XCTAssertEqual(second.events, [.requested(.unlimited)])
        recorder.cancel()
    }

    func testSubjectCancelsUpstreamsOnDeinit() {
        let upstream = RecordingSubscription()
        do {
            let subject = PassthroughSubject<Int, Never>()
            subject.send(subscription: upstream)
        }
        XCTAssertEqual(upstream.events, [.cancelled])
    }

    /// Combine keeps the upstreams past the subject's completion (observed against Apple's
    /// Combine in CombineX's `PassthroughSubjectSpec`) and cancels them when the subject goes: an
    /// upstream still running when the subject is finished by hand is not left running. The same
    /// for a `CurrentValueSubject`.
    func testUpstreamsOutliveTheCompletionAndAreCancelledOnDeinit() {
        assertUpstreamsOutliveTheCompletion { PassthroughSubject<Int, Never>() }
        assertUpstreamsOutliveTheCompletion { CurrentValueSubject<Int, Never>(0) }
    }

    private func assertUpstreamsOutliveTheCompletion<S: Subject>(
        of makeSubject: () -> S, line: UInt = #line
    ) where S.Failure == Never {
        let upstream = RecordingSubscription()
        weak var weakUpstream: RecordingSubscription?
        do {
            let subject = makeSubject()
            do {
                let kept = RecordingSubscription()
                weakUpstream = kept
                subject.send(subscription: kept)
            }
            subject.send(subscription: upstream)
            subject.send(completion: .finished)
            XCTAssertNotNil(weakUpstream, "\(S.self)", line: line)
            XCTAssertFalse(upstream.events.contains(.cancelled), "\(S.self)", line: line)
        }
        XCTAssertEqual(upstream.events.last, .cancelled, "\(S.self)", line: line)
        XCTAssertNil(weakUpstream, "\(S.self)", line: line)
    }

    func testSendFromManyThreadsNeverOverlapsAndDeliversEverything() {
        let subject = PassthroughSubject<Int, Never>()
        let inside = AtomicCounter()
        let overlaps = AtomicCounter()
        let received = AtomicCounter()
        let cancellable = subject.sink { _ in
            if inside.increment() != 1 { overlaps.increment() }
            received.increment()
            inside.decrement()
        }
        DispatchQueueStandIn.concurrentPerform(iterations: 4) { _ in
            for value in 0..<5_000 { subject.send(value) }
        }
        XCTAssertEqual(received.value, 20_000)
        XCTAssertEqual(overlaps.value, 0)
        cancellable.cancel()
    }

    func testVoidSend() {
        let subject = PassthroughSubject<Void, Never>()
        var count = 0
        let cancellable = subject.sink { count += 1 }
        subject.send()
        XCTAssertEqual(count, 1)
        cancellable.cancel()
    }

    func testSubscriptionMirrorShowsSubjectSubscriberAndDemandUntilItEnds() throws {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(3))
        subject.subscribe(recorder)
        subject.send(1)
        let subscription = try XCTUnwrap(recorder.subscription)
        let labels = { Mirror(reflecting: subscription).children.map { $0.label ?? "" } }
        let values = { Mirror(reflecting: subscription).children.map { String(describing: $0.value) } }
        XCTAssertEqual(labels(), ["parent", "downstream", "demand", "subject"])
        XCTAssertEqual(values().map { $0.contains("PassthroughSubject") }, [true, false, false, true])
        XCTAssertTrue(values().dropFirst().first?.contains("RecordingSubscriber") ?? false)
        XCTAssertEqual(values().dropFirst(2).first, "max(2)")
        recorder.cancel()
        XCTAssertEqual(values(), ["nil", "nil", "max(2)", "nil"], "the demand is kept as it was")
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
    }

    func testCurrentValueSubjectValueSetAfterCompletionIsKeptButNotSent() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let recorder = RecordingSubscriber<Int, Never>()
        subject.subscribe(recorder)
        subject.send(completion: .finished)
        subject.send(1)
        XCTAssertEqual(subject.value, 0, "send after completion changes nothing")
        subject.value = 2
        XCTAssertEqual(subject.value, 2, "setting the value after completion still sets it")
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .completion(.finished)])
    }
}
