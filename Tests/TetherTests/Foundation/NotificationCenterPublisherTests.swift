import Foundation
import Synchronization
import Tether
import TetherExtras
import TetherTesting
import XCTest

private let ping = Notification.Name("TetherTests.ping")
private let other = Notification.Name("TetherTests.other")

final class NotificationCenterPublisherTests: TetherTestCase {
    /// A private center, so that tests cannot see each other's notifications.
    private let center = NotificationCenter()

    private func post(_ index: Int, name: Notification.Name = ping, object: AnyObject? = nil) {
        center.post(name: name, object: object, userInfo: ["index": index])
    }

    private func indexes(_ recorder: RecordingSubscriber<Notification, Never>) -> [Int] {
        recorder.values.compactMap { $0.userInfo?["index"] as? Int }
    }

    func testDeliversPostedNotificationsAsDemanded() {
        let recorder = RecordingSubscriber<Notification, Never>(demand: .max(2))
        center.publisher(for: ping).subscribe(recorder)

        post(1)
        post(2, name: other)
        post(3)
        post(4)
        XCTAssertEqual(indexes(recorder), [1, 3], "the fourth finds no demand and is dropped")

        recorder.request(.max(1))
        post(5)
        post(6)
        XCTAssertEqual(indexes(recorder), [1, 3, 5])
        XCTAssertEqual(recorder.events.count, 4, "no completion: \(recorder.events)")
        XCTAssertEqual(recorder.subscriptionDescriptions, ["NotificationCenter Observer"])
        recorder.cancel()
    }

    func testANotificationPostedBeforeTheFirstDemandIsDropped() {
        let recorder = RecordingSubscriber<Notification, Never>(demand: .none)
        center.publisher(for: ping).subscribe(recorder)
        post(1)
        recorder.request(.unlimited)
        post(2)
        XCTAssertEqual(indexes(recorder), [2])
        recorder.cancel()
    }

    func testDemandReturnedFromReceiveIsAdded() {
        let recorder = RecordingSubscriber<Notification, Never>(demand: .max(1), demandPerValue: { _ in .max(1) })
        center.publisher(for: ping).subscribe(recorder)
        for index in 0..<5 { post(index) }
        XCTAssertEqual(indexes(recorder), [0, 1, 2, 3, 4])
        recorder.cancel()
    }

    func testObjectFilterKeepsOnlyThatObjectsNotifications() {
        let sender = NSObject()
        let stranger = NSObject()
        let recorder = RecordingSubscriber<Notification, Never>()
        center.publisher(for: ping, object: sender).subscribe(recorder)
        post(1, object: stranger)
        post(2, object: sender)
        XCTAssertEqual(indexes(recorder), [2])
        XCTAssertTrue(recorder.values.first?.object as AnyObject? === sender)
        recorder.cancel()
    }

    func testCancelRemovesTheObserverAndReleasesTheSubscriber() {
        weak var weakRecorder: RecordingSubscriber<Notification, Never>?
        do {
            let recorder = RecordingSubscriber<Notification, Never>()
            weakRecorder = recorder
            center.publisher(for: ping).subscribe(recorder)
            post(1)
            XCTAssertEqual(indexes(recorder), [1])
            recorder.cancel()
            post(2)
            XCTAssertEqual(indexes(recorder), [1], "a cancelled subscription receives nothing more")
        }
        // The center held the observer's block, which held the subscription and its subscriber:
        // both are gone, so the observer was removed.
        XCTAssertNil(weakRecorder)
        XCTAssertEqual(SubscriptionLedger.liveAfterSettling(), [])
    }

    func testASubscriberThatKeepsItsSubscriptionLivesUntilItCancels() {
        weak var weakRecorder: RecordingSubscriber<Notification, Never>?
        do {
            let recorder = RecordingSubscriber<Notification, Never>()
            weakRecorder = recorder
            center.publisher(for: ping).subscribe(recorder)
        }
        XCTAssertNotNil(weakRecorder, "the subscriber and its subscription keep each other alive, as in Combine")
        post(1)
        XCTAssertEqual(weakRecorder.map(indexes), [1])
        weakRecorder?.cancel()
        XCTAssertNil(weakRecorder)
    }

    /// Twenty posts to subscribers asking, when subscribed and then from each value, for the
    /// demands below: how many each receives is what Combine's record says.
    func testTheNotificationsReceivedFollowTheDemandsAskedForWhenSubscribedAndFromEachValue() {
        let initial: [Subscribers.Demand?] = [nil, .max(1), .max(2), .max(10), .unlimited]
        let returned: [[Subscribers.Demand]] = [
            Array(repeating: .none, count: 5), Array(repeating: .max(1), count: 10),
            [.max(1), .none, .max(1), .none], [.none, .max(1), .max(2)], [.unlimited, .max(1)],
        ]
        var received: [Int] = []
        for first in initial {
            for answers in returned {
                let answered = Mutex(0)
                let recorder = RecordingSubscriber<Notification, Never>(
                    demand: first ?? .none,
                    demandPerValue: { _ in
                        answered.withLock { count in
                            defer { count += 1 }
                            return count < answers.count ? answers[count] : .none
                        }
                    })
                center.publisher(for: ping).subscribe(recorder)
                for index in 0..<20 { post(index) }
                received.append(recorder.values.count)
                recorder.cancel()
            }
        }
        XCTAssertEqual(
            received, [0, 0, 0, 0, 0, 1, 11, 2, 1, 20, 2, 12, 4, 5, 20, 10, 20, 12, 13, 20, 20, 20, 20, 20, 20])
    }

    /// As in Combine, the center's observer holds the subscription weakly: one that its
    /// subscriber lets go of without cancelling is gone, and delivers nothing more.
    func testASubscriptionLetGoOfWithoutACancelIsGoneAndDeliversNothingMore() {
        let subscriber = HoldingSubscriber()
        center.publisher(for: ping).subscribe(subscriber)
        weak let subscription = subscriber.subscription as AnyObject?
        post(1)
        subscriber.subscription = nil
        XCTAssertNil(subscription, "the center kept the subscription alive")
        post(2)
        XCTAssertEqual(subscriber.received.compactMap { $0.userInfo?["index"] as? Int }, [1])
    }

    /// A request for `.none` does nothing: it does not trap, as in Combine.
    func testARequestForNoneDoesNothing() {
        let recorder = RecordingSubscriber<Notification, Never>(demand: .none)
        center.publisher(for: ping).subscribe(recorder)
        recorder.request(.none)
        post(1)
        recorder.request(.max(1))
        post(2)
        post(3)
        XCTAssertEqual(indexes(recorder), [2])
        recorder.cancel()
    }

    /// The subscription holds the center until it is cancelled, and then lets go of it, even while
    /// it is itself still held, as in Combine.
    func testCancellingLetsGoOfTheCenter() throws {
        weak var weakCenter: NotificationCenter?
        let recorder = RecordingSubscriber<Notification, Never>()
        do {
            let center = NotificationCenter()
            weakCenter = center
            center.publisher(for: ping).subscribe(recorder)
        }
        XCTAssertNotNil(weakCenter, "the subscription holds its center")
        let subscription = try XCTUnwrap(recorder.subscription)
        recorder.cancel()
        XCTAssertNil(weakCenter, "the cancelled subscription still holds its center")
        withExtendedLifetime(subscription) {}
    }

    /// The subscription's mirror shows the center (an optional, `nil` once cancelled), the name,
    /// the object and the demand, as Combine's does.
    func testTheMirrorShowsTheCenterTheNameTheObjectAndTheDemand() throws {
        let sender = NSObject()
        let recorder = RecordingSubscriber<Notification, Never>(demand: .none)
        center.publisher(for: ping, object: sender).subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)
        func children() throws -> [String] {
            try XCTUnwrap(subscription as? any CustomReflectable).customMirror.children.map {
                "\($0.label ?? "?"): \(String(describing: $0.value))"
            }
        }
        XCTAssertEqual(
            try children(),
            [
                "center: \(String(describing: Optional(center)))", "name: \(ping)",
                "object: \(String(describing: Optional(sender)))", "demand: max(0)",
            ])
        recorder.request(.max(3))
        XCTAssertEqual(try children().last, "demand: max(3)")
        recorder.cancel()
        XCTAssertEqual(try children().first, "center: nil")
    }

    func testAPostFromInsideReceiveIsDeliveredAtOnceNestedInIt() {
        var log: [String] = []
        var depth = 0
        let cancellable = center.publisher(for: ping).sink { [unowned self] note in
            let index = note.userInfo?["index"] as? Int ?? -1
            depth += 1
            log.append("begin \(index) at depth \(depth)")
            if index == 1 { post(2) }
            log.append("end \(index)")
            depth -= 1
        }
        post(1)
        XCTAssertEqual(log, ["begin 1 at depth 1", "begin 2 at depth 2", "end 2", "end 1"])
        cancellable.cancel()
    }

    func testPostsFromInsideReceiveAreDeliveredNestedAndNotAfterACancelFromInside() {
        var log: [String] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Notification, Never>(
            receiveSubscription: {
                subscription = $0; $0.request(.unlimited)
            },
            receiveValue: { [unowned self] note in
                let index = note.userInfo?["index"] as? Int ?? -1
                log.append("value \(index)")
                if index == 1 {
                    post(2)
                    post(3)
                }
                if index == 2 {
                    post(4)
                    subscription?.cancel()
                    log.append("cancelled")
                }
                return .none
            },
            receiveCompletion: { log.append("completion \($0)") })
        center.publisher(for: ping).subscribe(subscriber)
        post(1)
        post(5)
        XCTAssertEqual(log, ["value 1", "value 2", "value 4", "cancelled"])
        subscription = nil
    }

    /// As in Combine, a notification takes the subscriber's demand when it is posted: one posted
    /// while the subscriber is busy on another thread with the last notification it asked for
    /// is dropped at once, and the demand that delivery returns is left for later posts.
    func testAPostThatFindsNoDemandIsDroppedAtOnceWhileTheSubscriberIsBusy() {
        let busy = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let returned = Atomic<Bool>(false)
        let recorder = RecordingSubscriber<Notification, Never>(demand: .max(1)) { notification in
            guard notification.userInfo?["index"] as? Int == 1 else { return .none }
            busy.signal()
            // Bounded, so that a post that waits for this delivery fails the test rather than
            // hanging it.
            _ = release.wait(timeout: .now() + 2)
            returned.store(true, ordering: .sequentiallyConsistent)
            return .max(1)
        }
        center.publisher(for: ping).subscribe(recorder)
        let center = self.center
        let posted = DispatchSemaphore(value: 0)
        let poster = Thread {
            center.post(name: ping, object: nil, userInfo: ["index": 1])
            posted.signal()
        }
        poster.start()
        busy.wait()
        post(2)
        XCTAssertFalse(returned.load(ordering: .sequentiallyConsistent), "the post waited for the busy subscriber")
        release.signal()
        posted.wait()
        post(3)
        XCTAssertEqual(indexes(recorder), [1, 3])
        recorder.cancel()
    }

    func testConcurrentPostsAreDeliveredOneAtATime() {
        let inside = Atomic(0)
        let overlaps = Atomic(0)
        let received = Atomic(0)
        let cancellable = center.publisher(for: ping).sink { _ in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            usleep(50)
            inside.subtract(1, ordering: .sequentiallyConsistent)
            received.add(1, ordering: .relaxed)
        }
        let center = self.center
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<100 {
                center.post(name: ping, object: nil, userInfo: ["index": thread * 100 + index])
            }
        }
        XCTAssertEqual(received.load(ordering: .relaxed), 400)
        XCTAssertEqual(overlaps.load(ordering: .relaxed), 0)
        cancellable.cancel()
    }

    func testPublisherKeepsCenterNameAndObject() {
        let sender = NSObject()
        let publisher = NotificationCenter.Publisher(center: center, name: ping, object: sender)
        XCTAssertTrue(publisher.center === center)
        XCTAssertEqual(publisher.name, ping)
        XCTAssertTrue(publisher.object === sender)
        XCTAssertNil(center.publisher(for: ping).object)
    }
}

/// A subscriber that asks for every notification and keeps its subscription until the test sets
/// it to `nil`, without cancelling.
private final class HoldingSubscriber: Subscriber, @unchecked Sendable {
    typealias Input = Notification
    typealias Failure = Never

    var subscription: (any Subscription)?
    private(set) var received: [Notification] = []

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Notification) -> Subscribers.Demand {
        received.append(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}
