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
        weak var weakTarget: Target?
        let subscriber: Subscribers.Assign<Target, Int>
        do {
            let target = Target()
            weakTarget = target
            subscriber = Subscribers.Assign(object: target, keyPath: \.tracked)
        }
        publisher.subscribe(subscriber)
        publisher.send(1)
        XCTAssertEqual(weakTarget?.history, [1])
        publisher.send(completion: .finished)
        XCTAssertNil(weakTarget)
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

    func testCancelBeforeSubscriptionReleasesTheObjectAndRefusesTheSubscription() {
        weak var weakTarget: Target?
        let subscriber: Subscribers.Assign<Target, Int>
        do {
            let target = Target()
            weakTarget = target
            subscriber = Subscribers.Assign(object: target, keyPath: \.tracked)
        }
        subscriber.cancel()
        XCTAssertNil(weakTarget)
        let late = RecordingSubscription()
        subscriber.receive(subscription: late)
        XCTAssertEqual(late.events, [.cancelled])
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
