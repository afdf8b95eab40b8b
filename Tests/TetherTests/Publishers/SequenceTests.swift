import Tether
import TetherTesting
import XCTest

final class SequenceTests: TetherTestCase {
    func testDeliversAllWithUnlimitedDemandThenFinishes() {
        let recorder = RecordingSubscriber<Int, Never>()
        [1, 2, 3].publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["[1, 2, 3]"])
    }

    func testHonoursDemandExactlyAndFinishesRightAfterTheLastElement() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
        (1...3).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testEmptySequenceFinishesAtOnceWithTheEmptySubscription() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        [Int]().publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Empty"])
    }

    func testDemandReturnedFromReceiveIsAdded() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { $0 < 3 ? .max(1) : .none })
        (1...5).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 2, 3])
        XCTAssertNil(recorder.completion)
        recorder.request(.max(2))
        XCTAssertEqual(recorder.values, [1, 2, 3, 4, 5])
        XCTAssertEqual(recorder.completion, .finished)
    }

    func testRequestFromInsideReceiveDoesNotRecurse() {
        var depth = 0
        var maxDepth = 0
        var subscription: (any Subscription)?
        var received: [Int] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0; $0.request(.max(1))
            },
            receiveValue: { value in
                depth += 1
                maxDepth = max(maxDepth, depth)
                received.append(value)
                subscription?.request(.max(1))
                depth -= 1
                return .none
            },
            receiveCompletion: { _ in subscription = nil })
        (1...10_000).publisher.subscribe(subscriber)
        XCTAssertEqual(received.count, 10_000)
        XCTAssertEqual(maxDepth, 1)
    }

    func testCancelFromInsideReceiveStopsDeliveryAndReleasesTheSubscriber() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demandPerValue: { _ in .none })
            weakRecorder = recorder
            let canceller = AnySubscriber<Int, Never>(
                receiveSubscription: { subscription in
                    recorder.receive(subscription: subscription)
                },
                receiveValue: { value in
                    _ = recorder.receive(value)
                    if value == 2 { recorder.cancel() }
                    return .none
                },
                receiveCompletion: { recorder.receive(completion: $0) })
            (1...5).publisher.subscribe(canceller)
            XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        }
        XCTAssertNil(weakRecorder)
    }

    func testCancelWhileWaitingForDemandReleasesTheSubscriberAtOnce() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakRecorder = recorder
            (1...3).publisher.subscribe(recorder)
            subscription = recorder.subscription
            XCTAssertEqual(recorder.events, [.subscription, .value(1)])
            subscription?.cancel()
            subscription?.request(.max(5))
            XCTAssertEqual(recorder.events, [.subscription, .value(1)], "nothing after the cancel")
        }
        XCTAssertNil(weakRecorder, "a cancelled subscription must let go of its subscriber")
        subscription = nil
    }

    func testSubscriptionReleasesSubscriberAfterFinishing() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>()
            weakRecorder = recorder
            let spy = AnySubscriber<Int, Never>(
                receiveSubscription: {
                    subscription = $0; recorder.receive(subscription: $0)
                },
                receiveValue: { recorder.receive($0) },
                receiveCompletion: { recorder.receive(completion: $0) })
            [1].publisher.subscribe(spy)
        }
        XCTAssertNotNil(subscription, "the test keeps the subscription alive")
        XCTAssertNil(weakRecorder, "a finished subscription must let go of its subscriber")
        subscription = nil
    }

    func testRequestInsideReceiveSubscriptionDeliversBeforeItReturns() {
        var events: [String] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0
                events.append("subscription")
                $0.request(.max(1))
                events.append("requested")
                $0.cancel()
            },
            receiveValue: {
                events.append("value \($0)")
                return .none
            },
            receiveCompletion: { _ in events.append("completion") })
        (1...3).publisher.subscribe(subscriber)
        subscription?.request(.max(1))
        XCTAssertEqual(events, ["subscription", "value 1", "requested"])
    }

    func testRequestingNoneDoesNothing() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        (1...3).publisher.subscribe(recorder)
        recorder.request(.none)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(2))
        recorder.request(.none)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testDescriptionAndMirrorNameTheSequenceUntilTheStreamEnds() {
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription = $0 }, receiveValue: { _ in .none }, receiveCompletion: { _ in })
        [4, 5].publisher.subscribe(subscriber)
        XCTAssertEqual(subscription.map { String(describing: $0) }, "[4, 5]")
        XCTAssertEqual(subscription.map(mirrorSummary), ["sequence: [4, 5]"])
        XCTAssertNil(subscription.flatMap { Mirror(reflecting: $0).superclassMirror })
        subscription?.request(.max(2))
        XCTAssertEqual(subscription.map { String(describing: $0) }, "Sequence", "finished")
        XCTAssertEqual(subscription.map(mirrorSummary), ["sequence: []"])

        [6].publisher.subscribe(subscriber)
        subscription?.cancel()
        XCTAssertEqual(subscription.map { String(describing: $0) }, "Sequence", "cancelled")
        XCTAssertEqual(subscription.map(mirrorSummary), ["sequence: []"])
    }

    func testASequenceWithoutADescriptionOfItsOwnIsDescribedAsSequence() {
        // Recorded on Apple's Combine: `stride(from: 0, to: 5, by: 2).publisher.print("publisher")`
        // logs `publisher: receive subscription: (Sequence)`, and so do the sequences the merged
        // `dropFirst`, `prefix` and `drop(while:)` make; ranges and arrays print as themselves.
        func described<S: Sequence>(_ sequence: S) -> String? {
            var subscription: (any Subscription)?
            sequence.publisher.subscribe(
                AnySubscriber<S.Element, Never>(
                    receiveSubscription: { subscription = $0 }, receiveValue: { _ in .none },
                    receiveCompletion: { _ in }))
            defer { subscription?.cancel() }
            return subscription.map { String(describing: $0) }
        }
        XCTAssertEqual(described(stride(from: 0, to: 5, by: 2)), "Sequence")
        XCTAssertEqual(described((1...7).dropFirst(4) as DropFirstSequence<ClosedRange<Int>>), "Sequence")
        XCTAssertEqual(described(zip([1], [2])), "Sequence")
        XCTAssertEqual(described(1...3), "1...3")
        XCTAssertEqual(described(["a", "b"]), #"["a", "b"]"#)
        XCTAssertEqual(described("ab"), "ab")

        let log = CollectingStream()
        _ = (1...7).publisher.dropFirst(4).print("dropFirst", to: StreamHandle(target: log)).sink { _ in }
        XCTAssertEqual(
            log.lines,
            [
                "dropFirst: receive subscription: (Sequence)", "dropFirst: request unlimited",
                "dropFirst: receive value: (5)", "dropFirst: receive value: (6)", "dropFirst: receive value: (7)",
                "dropFirst: receive finished",
            ])
    }
}
