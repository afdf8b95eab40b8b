import Foundation
import Tether
import TetherTesting
import XCTest

private final class Contact: ObservableObject {
    @Published var name: String
    @Published var age: Int

    init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    func haveBirthday() -> Int {
        age += 1
        return age
    }
}

private final class Plain: ObservableObject {
    var count = 0
}

private final class CustomPublisherObject: ObservableObject {
    let objectWillChange = PassthroughSubject<Void, Never>()
    @Published var value = 0
}

private final class Shared: ObservableObject, @unchecked Sendable {
    @Published var value = 0
}

/// A property declared in a class that is not an `ObservableObject`, on an instance of a subclass
/// that is: what the property's subject knows of its owner is decided from the instance, not
/// from the class that declares the property.
private class Form {
    @Published var title = ""
}

private final class ObservedForm: Form, ObservableObject {}

final class ObservableObjectTests: TetherTestCase {
    func testDocumentationExampleFiresBeforeTheChangeAndSeesTheOldValue() {
        let john = Contact(name: "John Appleseed", age: 24)
        var log: [String] = []
        let cancellable = john.objectWillChange.sink { _ in
            log.append("\(john.age) will change")
        }
        log.append("\(john.haveBirthday())")
        XCTAssertEqual(log, ["24 will change", "25"])
        cancellable.cancel()
    }

    func testObjectWillChangeIsTheSameInstanceOnEveryAccess() {
        let contact = Contact(name: "A", age: 1)
        let first = contact.objectWillChange
        XCTAssertTrue(first === contact.objectWillChange)
        contact.age = 2
        XCTAssertTrue(first === contact.objectWillChange)
        let other = Contact(name: "B", age: 1)
        XCTAssertFalse(first === other.objectWillChange)
        let plain = Plain()
        XCTAssertTrue(plain.objectWillChange === plain.objectWillChange)
    }

    func testFiresOnceBeforeEveryChangeOfAnyPublishedProperty() {
        let contact = Contact(name: "A", age: 1)
        var log: [String] = []
        let willChange = contact.objectWillChange.sink { log.append("will change: \(contact.name) \(contact.age)") }
        let names = contact.$name.dropFirstValue { log.append("name -> \($0), stored \(contact.name)") }
        contact.name = "B"
        contact.age = 2
        contact.age += 1
        XCTAssertEqual(
            log,
            [
                "will change: A 1", "name -> B, stored A",
                "will change: B 1",
                "will change: B 2",
            ])
        willChange.cancel()
        names.cancel()
    }

    func testValuesAssignedToAPublishedPropertyFireObjectWillChange() {
        let upstream = PassthroughSubject<Int, Never>()
        let contact = Contact(name: "A", age: 1)
        var seen: [Int] = []
        let cancellable = contact.objectWillChange.sink { seen.append(contact.age) }
        upstream.assign(to: &contact.$age)
        upstream.send(30)
        upstream.send(31)
        XCTAssertEqual(seen, [1, 30])
        XCTAssertEqual(contact.age, 31)
        cancellable.cancel()
    }

    func testUpstreamThatEmitsDuringAssignMayReadTheProperty() {
        let contact = Contact(name: "A", age: 1)
        var seen: [String] = []
        let willChange = contact.objectWillChange.sink { seen.append("will change from \(contact.age)") }
        let upstream = CurrentValueSubject<Int, Never>(40)
        upstream.assign(to: &contact.$age)
        XCTAssertEqual(contact.age, 40)
        upstream.send(41)
        XCTAssertEqual(seen, ["will change from 1", "will change from 40"])
        XCTAssertEqual(contact.age, 41)
        willChange.cancel()
    }

    func testSubscribingToTheProjectionBeforeObjectWillChangeStillFiresIt() {
        let contact = Contact(name: "A", age: 1)
        let ages = contact.$age.sink { _ in }
        let recorder = RecordingSubscriber<Void, Never>()
        contact.objectWillChange.subscribe(recorder)
        contact.age = 2
        contact.name = "B"
        XCTAssertEqual(recorder.events.count, 3)
        recorder.cancel()
        ages.cancel()
    }

    func testAPropertyProjectedAfterObjectWillChangeWasMadeFiresItFirst() {
        let contact = Contact(name: "A", age: 1)
        var history: [String] = []
        let view = contact.objectWillChange.sink { history.append("will change, age \(contact.age)") }
        let ages = contact.$age.sink { history.append("age \($0), property \(contact.age)") }
        contact.age = 2
        contact.age = 3
        XCTAssertEqual(
            history,
            [
                "age 1, property 1",
                "will change, age 1", "age 2, property 1",
                "will change, age 2", "age 3, property 2",
            ])
        view.cancel()
        ages.cancel()
    }

    func testObjectWithoutPublishedPropertiesCanSendByHand() {
        let plain = Plain()
        var count = 0
        let cancellable = plain.objectWillChange.sink { count += 1 }
        plain.objectWillChange.send()
        plain.count += 1
        XCTAssertEqual(count, 1)
        cancellable.cancel()
    }

    func testCustomObjectWillChangeIsLeftToTheClass() {
        let object = CustomPublisherObject()
        var count = 0
        let cancellable = object.objectWillChange.sink { count += 1 }
        object.value = 1
        XCTAssertEqual(count, 0)
        object.objectWillChange.send()
        XCTAssertEqual(count, 1)
        cancellable.cancel()
    }

    func testEveryObjectGetsAFreshPublisherAndThoseOfDeadObjectsAreSwept() {
        var publishers: [WeakPublisher] = []
        for _ in 0..<300 {
            let contact = Contact(name: "A", age: 1)
            let publisher = contact.objectWillChange
            XCTAssertFalse(publishers.contains { $0.value === publisher })
            publishers.append(WeakPublisher(value: publisher))
            var fired = 0
            let cancellable = publisher.sink { fired += 1 }
            contact.age = 2
            XCTAssertEqual(fired, 1)
            cancellable.cancel()
        }
        XCTAssertTrue(
            publishers.prefix(32).allSatisfy { $0.value == nil },
            "inserting hundreds of entries must have swept those of the first, dead, objects")
    }

    func testPublisherIsReleasedWithAnObjectWhosePropertyWasProjected() {
        weak var weakPublisher: ObservableObjectPublisher?
        weak var weakContact: Contact?
        do {
            let contact = Contact(name: "A", age: 1)
            weakContact = contact
            weakPublisher = contact.objectWillChange
            let ages = contact.$age.sink { _ in }
            contact.age = 2
            ages.cancel()
        }
        XCTAssertNil(weakContact)
        XCTAssertNil(weakPublisher)
    }

    func testConcurrentAccessYieldsOnePublisherPerObject() {
        let objects = (0..<8).map { _ in Shared() }
        let seen = UncheckedBox(objects)
        let identities = Mutexed([Int: Set<ObjectIdentifier>]())
        let fired = AtomicCounter()
        let cancellables = objects.map { $0.objectWillChange.sink { fired.increment() } }
        DispatchQueueStandIn.concurrentPerform(iterations: 8) { thread in
            for round in 0..<500 {
                let index = (thread + round) % 8
                let publisher = seen.value[index].objectWillChange
                identities.update { $0[index, default: []].insert(ObjectIdentifier(publisher)) }
            }
        }
        identities.update { map in
            XCTAssertEqual(map.count, 8)
            XCTAssertTrue(map.values.allSatisfy { $0.count == 1 })
        }
        for object in objects { object.value += 1 }
        XCTAssertEqual(fired.value, 8)
        for cancellable in cancellables { cancellable.cancel() }
    }
}

final class ObservableObjectPublisherTests: TetherTestCase {
    func testAnyDemandReceivesEverySignalAsInCombine() {
        let publisher = ObservableObjectPublisher()
        let one = RecordingSubscriber<Void, Never>(demand: .max(1))
        let none = RecordingSubscriber<Void, Never>(demand: .none)
        publisher.subscribe(one)
        publisher.subscribe(none)
        publisher.send()
        publisher.send()
        publisher.send()
        XCTAssertEqual(one.events.count, 4)
        XCTAssertEqual(none.events.count, 1)
        none.request(.max(1))
        publisher.send()
        XCTAssertEqual(none.events.count, 2)
        XCTAssertEqual(one.subscriptionDescriptions, ["ObservableObjectPublisher"])
        one.cancel()
        none.cancel()
    }

    func testCancelDetachesAndReleasesTheSubscriber() {
        let publisher = ObservableObjectPublisher()
        weak var weakRecorder: RecordingSubscriber<Void, Never>?
        do {
            let recorder = RecordingSubscriber<Void, Never>()
            weakRecorder = recorder
            publisher.subscribe(recorder)
            publisher.send()
            recorder.cancel()
            publisher.send()
            XCTAssertEqual(recorder.events.count, 2)
        }
        XCTAssertNil(weakRecorder)
    }

    func testSubscriptionDoesNotKeepThePublisherAlive() {
        weak var weakPublisher: ObservableObjectPublisher?
        let recorder = RecordingSubscriber<Void, Never>()
        do {
            let publisher = ObservableObjectPublisher()
            weakPublisher = publisher
            publisher.subscribe(recorder)
        }
        XCTAssertNil(weakPublisher)
        recorder.cancel()
    }

    func testASubscriptionNobodyElseHoldsGoesWithThePublisher() {
        final class Forgetful: Subscriber {
            typealias Input = Void
            typealias Failure = Never
            weak var subscription: AnyObject?
            var signals = 0

            func receive(subscription: any Subscription) {
                self.subscription = subscription as AnyObject
                subscription.request(.unlimited)
            }

            func receive(_ input: Void) -> Subscribers.Demand {
                signals += 1
                return .none
            }

            func receive(completion: Subscribers.Completion<Never>) {}
        }
        let subscriber = Forgetful()
        do {
            let publisher = ObservableObjectPublisher()
            publisher.subscribe(subscriber)
            publisher.send()
            XCTAssertNotNil(subscriber.subscription)
        }
        XCTAssertNil(subscriber.subscription, "the publisher's subscriptions outlived it")
        XCTAssertEqual(subscriber.signals, 1)
    }

    func testASinkHoldsThePublisherWeaklyAndItsClosureUntilCancelled() {
        final class Captured {}
        weak var weakPublisher: ObservableObjectPublisher?
        weak var weakCaptured: Captured?
        var received = 0
        let cancellable: AnyCancellable
        do {
            let publisher = ObservableObjectPublisher()
            let captured = Captured()
            weakPublisher = publisher
            weakCaptured = captured
            cancellable = publisher.sink { withExtendedLifetime(captured) { received += 1 } }
            publisher.send()
            publisher.send()
        }
        XCTAssertNil(weakPublisher)
        XCTAssertNotNil(weakCaptured)
        XCTAssertEqual(received, 2)
        cancellable.cancel()
        XCTAssertNil(weakCaptured)
    }

    func testReentrantSendIsDeliveredAtOnceNestedInTheCurrentOne() {
        let publisher = ObservableObjectPublisher()
        var depth = 0
        var log: [String] = []
        let cancellable = publisher.sink {
            depth += 1
            log.append("begin at depth \(depth)")
            if depth < 3 { publisher.send() }
            log.append("end at depth \(depth)")
            depth -= 1
        }
        publisher.send()
        XCTAssertEqual(
            log,
            [
                "begin at depth 1", "begin at depth 2", "begin at depth 3", "end at depth 3", "end at depth 2",
                "end at depth 1",
            ])
        cancellable.cancel()
    }

    /// The general subscription (not a `sink`) nests as the sink does.
    func testReentrantSendReachesASubscriberNestedInTheCurrentOne() {
        let publisher = ObservableObjectPublisher()
        var log: [String] = []
        var depth = 0
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Void, Never>(
            receiveSubscription: {
                subscription = $0
                $0.request(.max(1))
            },
            receiveValue: {
                depth += 1
                log.append("begin at depth \(depth)")
                if depth < 2 { publisher.send() }
                log.append("end at depth \(depth)")
                depth -= 1
                return .none
            },
            receiveCompletion: { _ in })
        publisher.subscribe(subscriber)
        publisher.send()
        XCTAssertEqual(log, ["begin at depth 1", "begin at depth 2", "end at depth 2", "end at depth 1"])
        subscription?.cancel()
        subscription = nil
    }

    func testAPropertyOfABaseClassFiresTheSubclasssObjectWillChangeFirst() {
        let form = ObservedForm()
        var log: [String] = []
        let property = form.$title.sink { log.append("title \($0)") }
        let object = form.objectWillChange.sink { log.append("will change from \(form.title)") }
        form.title = "A"
        form.title = "B"
        XCTAssertEqual(
            log, ["title ", "will change from ", "title A", "will change from A", "title B"])
        property.cancel()
        object.cancel()
    }

    func testSendFromManyThreadsNeverOverlaps() {
        let publisher = ObservableObjectPublisher()
        let inside = AtomicCounter()
        let overlaps = AtomicCounter()
        let received = AtomicCounter()
        let cancellable = publisher.sink {
            if inside.increment() != 1 { overlaps.increment() }
            received.increment()
            inside.decrement()
        }
        DispatchQueueStandIn.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5_000 { publisher.send() }
        }
        XCTAssertEqual(received.value, 20_000)
        XCTAssertEqual(overlaps.value, 0)
        cancellable.cancel()
    }
}

extension Published.Publisher {
    /// Subscribes to the values after the current one.
    fileprivate func dropFirstValue(_ body: @escaping (Value) -> Void) -> AnyCancellable {
        var skipped = false
        return sink { value in
            if skipped { body(value) } else { skipped = true }
        }
    }
}

private struct WeakPublisher {
    weak var value: ObservableObjectPublisher?
}

/// A value behind a lock, for tests that gather results from several threads.
final class Mutexed<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    @discardableResult
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
