import Tether
import TetherTesting
import XCTest

private final class Target {
    var value = 0
    var history: [Int] = []
    var tracked: Int {
        get { value }
        set {
            value = newValue
            history.append(newValue)
        }
    }
}

/// A weak reference, to see when an object goes.
private final class Watched<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}

/// An `Assign` holding the only reference to a new target, and a watch on that target.
private func assignmentToAFreshTarget() -> (Subscribers.Assign<Target, Int>, Watched<Target>) {
    let target = Target()
    return (Subscribers.Assign(object: target, keyPath: \.tracked), Watched(target))
}

final class AssignTests: TetherTestCase {
    func testRequestsUnlimitedAndAssignsEveryValueInOrder() {
        let publisher = RecordingPublisher<Int, Never>()
        let target = Target()
        let cancellable = publisher.assign(to: \.tracked, on: target)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        XCTAssertEqual(publisher.send(1), [.none])
        publisher.send(2)
        publisher.send(3)
        XCTAssertEqual(target.history, [1, 2, 3])
        cancellable.cancel()
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
    }

    func testAssignsASequenceThroughTheWholeStream() {
        let target = Target()
        let cancellable = (1...4).publisher.map { $0 * 10 }.assign(to: \.tracked, on: target)
        XCTAssertEqual(target.history, [10, 20, 30, 40])
        cancellable.cancel()
    }

    func testHoldsTheObjectStronglyUntilCancelThenReleasesIt() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        var cancellable: AnyCancellable?
        do {
            let target = Target()
            weakTarget = target
            cancellable = subject.assign(to: \.value, on: target)
        }
        XCTAssertNotNil(weakTarget, "Assign must hold its object strongly, as Combine does")
        subject.send(7)
        XCTAssertEqual(weakTarget?.value, 7)
        cancellable?.cancel()
        XCTAssertNil(weakTarget, "Assign must release its object on cancel")
        subject.send(8)
        cancellable = nil
    }

    func testDeallocatingTheCancellableReleasesTheObject() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakTarget: Target?
        do {
            let target = Target()
            weakTarget = target
            _ = subject.assign(to: \.value, on: target)
        }
        XCTAssertNil(weakTarget)
    }

    func testReleasesTheObjectOnCompletionWithoutCancellingUpstream() {
        let publisher = RecordingPublisher<Int, Never>()
        let (subscriber, target) = assignmentToAFreshTarget()
        publisher.subscribe(subscriber)
        publisher.send(1)
        XCTAssertEqual(target.object?.history, [1])
        publisher.send(completion: .finished)
        XCTAssertNil(target.object)
        XCTAssertNil(subscriber.object)
        publisher.send(2)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
        publisher.releaseSubscribers()
    }

    func testCancelsASecondSubscription() {
        let target = Target()
        let subscriber = Subscribers.Assign(object: target, keyPath: \Target.tracked)
        let first = RecordingSubscription()
        let second = RecordingSubscription()
        subscriber.receive(subscription: first)
        subscriber.receive(subscription: second)
        XCTAssertEqual(first.events, [.requested(.unlimited)])
        XCTAssertEqual(second.events, [.cancelled])
        subscriber.cancel()
        subscriber.cancel()
        XCTAssertEqual(first.events, [.requested(.unlimited), .cancelled])
    }

    /// Combine keeps the object when cancelled before any subscription (observed against Apple's
    /// Combine in CombineX's `AssignSpec`); the subscription that arrives later is refused, and
    /// the object goes with the subscriber.
    func testCancelBeforeSubscriptionKeepsTheObjectAndRefusesTheSubscription() {
        let target: Watched<Target>
        var subscriber: Subscribers.Assign<Target, Int>?
        do {
            let made = assignmentToAFreshTarget()
            (subscriber, target) = (made.0, made.1)
        }
        subscriber?.cancel()
        subscriber?.cancel()
        XCTAssertNotNil(target.object)
        XCTAssertTrue(subscriber?.object === target.object)
        let late = RecordingSubscription()
        subscriber?.receive(subscription: late)
        XCTAssertEqual(late.events, [.cancelled])
        XCTAssertEqual(subscriber?.receive(1), Subscribers.Demand.none)
        XCTAssertEqual(target.object?.history, [])
        subscriber = nil
        XCTAssertNil(target.object)
    }

    /// A completion before any subscription is ignored, as Combine's `Assign` ignores it
    /// (CombineX's `AssignSpec`): the object stays and a subscription that arrives later is
    /// served.
    func testCompletionBeforeSubscriptionIsIgnored() {
        let (subscriber, target) = assignmentToAFreshTarget()
        subscriber.receive(completion: .finished)
        XCTAssertNotNil(target.object)
        let subscription = RecordingSubscription()
        subscriber.receive(subscription: subscription)
        XCTAssertEqual(subscriber.receive(7), Subscribers.Demand.none)
        XCTAssertEqual(target.object?.history, [7])
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
        subscriber.receive(completion: .finished)
        XCTAssertNil(target.object)
        XCTAssertEqual(subscription.events, [.requested(.unlimited)])
    }

    func testValuesAfterCancelAreNotAssigned() {
        let target = Target()
        let subscriber = Subscribers.Assign(object: target, keyPath: \Target.tracked)
        subscriber.receive(subscription: RecordingSubscription())
        XCTAssertEqual(subscriber.receive(1), .none)
        subscriber.cancel()
        XCTAssertEqual(subscriber.receive(2), .none)
        XCTAssertEqual(target.history, [1])
    }

    func testDescribesItselfAsCombineDoes() {
        let target = Target()
        let subscriber = Subscribers.Assign(object: target, keyPath: \Target.value)
        XCTAssertEqual(subscriber.description, "Assign Target.")
        XCTAssertEqual(subscriber.playgroundDescription as? String, "Assign Target.")
        XCTAssertEqual(subscriber.customMirror.children.map(\.label), ["object", "keyPath", "status"])
        XCTAssertTrue(subscriber.object === target)
        XCTAssertEqual(subscriber.keyPath, \Target.value)
    }
}
