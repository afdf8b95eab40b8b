import Tether
import TetherExtras
import TetherTesting
import XCTest

private final class Weather {
    @Published var temperature: Double
    @Published var label = "mild"

    init(temperature: Double) {
        self.temperature = temperature
    }
}

private final class Mirrored {
    @Published var source = 0
    @Published private(set) var doubled = 0

    init() {
        $source.map { $0 * 2 }.assign(to: &$doubled)
    }
}

private final class Fed {
    @Published var value = 0

    init(from upstream: PassthroughSubject<Int, Never>) {
        upstream.assign(to: &$value)
    }
}

private class Base {
    @Published var base = 1
}

private final class Derived: Base {
    @Published var derived = 2
}

final class PublishedTests: TetherTestCase {
    func testPropertyReadsAndWritesWithoutAnySubscriber() {
        let weather = Weather(temperature: 20)
        XCTAssertEqual(weather.temperature, 20)
        weather.temperature = 25
        weather.temperature += 1
        XCTAssertEqual(weather.temperature, 26)
        XCTAssertEqual(weather.label, "mild")
    }

    func testProjectedPublisherEmitsTheCurrentValueThenEveryNewOne() {
        let weather = Weather(temperature: 20)
        weather.temperature = 21
        let recorder = RecordingSubscriber<Double, Never>()
        weather.$temperature.subscribe(recorder)
        weather.temperature = 25
        weather.temperature = 30
        XCTAssertEqual(recorder.events, [.subscription, .value(21), .value(25), .value(30)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["PublishedSubject"])
        XCTAssertEqual(weather.temperature, 30)
        recorder.cancel()
    }

    func testSubscribersReceiveTheNewValueBeforeThePropertyIsSet() {
        let weather = Weather(temperature: 20)
        var seen: [String] = []
        let cancellable = weather.$temperature.sink { value in
            seen.append("received \(value), property \(weather.temperature)")
        }
        weather.temperature = 25
        weather.temperature = 30
        XCTAssertEqual(
            seen, ["received 20.0, property 20.0", "received 25.0, property 20.0", "received 30.0, property 25.0"])
        XCTAssertEqual(weather.temperature, 30)
        cancellable.cancel()
    }

    func testSubscriberWithoutDemandReceivesTheLatestValueWhenItAsks() {
        let weather = Weather(temperature: 20)
        let recorder = RecordingSubscriber<Double, Never>(demand: .max(1))
        weather.$temperature.subscribe(recorder)
        weather.temperature = 21
        weather.temperature = 22
        XCTAssertEqual(recorder.events, [.subscription, .value(20)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(20), .value(22)])
        weather.temperature = 23
        XCTAssertEqual(recorder.values, [20, 22])
        recorder.cancel()
    }

    func testEachSubscriberHasItsOwnDemand() {
        let weather = Weather(temperature: 1)
        let all = RecordingSubscriber<Double, Never>()
        let none = RecordingSubscriber<Double, Never>(demand: .none)
        weather.$temperature.subscribe(all)
        weather.$temperature.subscribe(none)
        weather.temperature = 2
        XCTAssertEqual(all.values, [1, 2])
        XCTAssertEqual(none.events, [.subscription])
        all.cancel()
        none.cancel()
    }

    func testSetFromInsideASubscriberLeavesTheLastValueAndDeliversInOrder() {
        let weather = Weather(temperature: 0)
        var received: [Double] = []
        let cancellable = weather.$temperature.sink { value in
            received.append(value)
            if value == 1 { weather.temperature = 2 }
        }
        weather.temperature = 1
        XCTAssertEqual(received, [0, 1, 2])
        XCTAssertEqual(weather.temperature, 2)
        cancellable.cancel()
    }

    /// Combine's behaviour as reported against Apple's Combine (OpenCombine issue 198): a
    /// subscriber made from inside another's delivery starts from the value being delivered,
    /// while the property itself still reads the old one.
    func testSubscriberAttachingWhileAValueGoesOutStartsFromThatValue() {
        let weather = Weather(temperature: 0)
        var log: [String] = []
        var nested: AnyCancellable?
        let outer = weather.$temperature.sink { value in
            log.append("outer \(value), property \(weather.temperature)")
            guard value == 1 else { return }
            nested = weather.$temperature.sink { value in
                log.append("nested \(value), property \(weather.temperature)")
            }
        }
        weather.temperature = 1
        weather.temperature = 2
        XCTAssertEqual(
            log,
            [
                "outer 0.0, property 0.0",
                "outer 1.0, property 0.0",
                "nested 1.0, property 0.0",
                "outer 2.0, property 1.0",
                "nested 2.0, property 1.0",
            ])
        XCTAssertEqual(weather.temperature, 2)
        outer.cancel()
        nested?.cancel()
    }

    /// The same for a subscriber without demand when it attaches: what it asks for later is the
    /// value sent last, whether or not the property has stored it yet.
    func testSubscriberAttachingWithoutDemandWhileAValueGoesOutIsHandedThatValueWhenItAsks() {
        let weather = Weather(temperature: 0)
        let late = RecordingSubscriber<Double, Never>(demand: .none)
        var propertyWhenAsked: [Double] = []
        let outer = weather.$temperature.dropFirst().sink { _ in
            weather.$temperature.subscribe(late)
            late.request(.max(1))
            propertyWhenAsked.append(weather.temperature)
        }
        weather.temperature = 5
        XCTAssertEqual(late.events, [.subscription, .value(5)])
        XCTAssertEqual(propertyWhenAsked, [0])
        XCTAssertEqual(weather.temperature, 5)
        outer.cancel()
        late.cancel()
    }

    func testAssignToPublishedFeedsThePropertyAndItsSubscribers() {
        let upstream = PassthroughSubject<Int, Never>()
        let fed = Fed(from: upstream)
        let recorder = RecordingSubscriber<Int, Never>()
        fed.$value.subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        XCTAssertEqual(fed.value, 2)
        fed.value = 3
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .value(1), .value(2), .value(3)])
        recorder.cancel()
    }

    func testAssignToPublishedRequestsUnlimitedAtOnceAndCancelsWhenTheOwnerGoes() {
        let upstream = RecordingPublisher<Int, Never>()
        weak var weakOwner: Weather?
        do {
            let owner = Weather(temperature: 0)
            weakOwner = owner
            upstream.map { Double($0) }.assign(to: &owner.$temperature)
            XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
            upstream.send(5)
            XCTAssertEqual(owner.temperature, 5)
        }
        XCTAssertNil(weakOwner)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testAssigningAPipelineToItsOwnPropertyFormsNoCycle() throws {
        try requireLedger()
        let upstream = PassthroughSubject<Int, Never>()
        weak var weakFed: Fed?
        weak var weakMirrored: Mirrored?
        do {
            let fed = Fed(from: upstream)
            let mirrored = Mirrored()
            weakFed = fed
            weakMirrored = mirrored
            upstream.send(4)
            mirrored.source = 21
            XCTAssertEqual(fed.value, 4)
            XCTAssertEqual(mirrored.doubled, 42)
            XCTAssertGreaterThan(SubscriptionLedger.liveCount, 0)
        }
        XCTAssertNil(weakFed)
        XCTAssertNil(weakMirrored)
        XCTAssertEqual(SubscriptionLedger.snapshot(), [])
        upstream.send(5)
    }

    func testFinishedUpstreamIsLetGoWhileThePropertyLives() throws {
        try requireLedger()
        let upstream = PassthroughSubject<Int, Never>()
        let fed = Fed(from: upstream)
        upstream.send(1)
        XCTAssertEqual(SubscriptionLedger.snapshot().count, 2, "the subject's conduit and the assigning subscriber")
        upstream.send(completion: .finished)
        XCTAssertEqual(SubscriptionLedger.snapshot(), [])
        XCTAssertEqual(fed.value, 1)
        fed.value = 2
        XCTAssertEqual(fed.value, 2)
    }

    func testPropertiesOfSubclassesPublishIndependently() {
        let object = Derived()
        var received: [String] = []
        let first = object.$base.sink { received.append("base \($0)") }
        let second = object.$derived.sink { received.append("derived \($0)") }
        object.base = 10
        object.derived = 20
        XCTAssertEqual(received, ["base 1", "derived 2", "base 10", "derived 20"])
        first.cancel()
        second.cancel()
    }

    func testProjectedValueOfTheStorageIsTheSamePublisher() {
        var storage = Published(initialValue: 1)
        let recorder = RecordingSubscriber<Int, Never>()
        storage.projectedValue.subscribe(recorder)
        [2].publisher.assign(to: &storage.projectedValue)
        XCTAssertEqual(recorder.values, [1, 2])
        recorder.cancel()
    }

    func testSettingFromManyThreadsDeliversEveryValueWithoutOverlap() {
        let weather = Weather(temperature: 0)
        let box = UncheckedBox(weather)
        let inside = AtomicCounter()
        let overlaps = AtomicCounter()
        let received = AtomicCounter()
        let cancellable = weather.$temperature.sink { _ in
            if inside.increment() != 1 { overlaps.increment() }
            received.increment()
            inside.decrement()
        }
        let upstreams = (0..<4).map { _ in PassthroughSubject<Double, Never>() }
        for upstream in upstreams {
            upstream.assign(to: &weather.$temperature)
        }
        let subjects = UncheckedBox(upstreams)
        DispatchQueueStandIn.concurrentPerform(iterations: 4) { index in
            for value in 0..<2_000 { subjects.value[index].send(Double(value)) }
        }
        XCTAssertEqual(received.value, 1 + 8_000)
        XCTAssertEqual(overlaps.value, 0)
        XCTAssertEqual(box.value.temperature, 1_999)
        cancellable.cancel()
    }
}

@MainActor
private final class MainActorModel: ObservableObject {
    @Published var count = 0

    func increment() { count += 1 }
}

final class MainActorPublishedTests: TetherTestCase {
    // XCTest on Linux cannot call `@MainActor` test methods; its tests run on the main thread.
    func testMainActorIsolatedObservableObjectPublishes() {
        MainActor.assumeIsolated {
            let model = MainActorModel()
            var log: [String] = []
            let willChange = model.objectWillChange.sink { log.append("will change from \(model.count)") }
            let counts = model.$count.sink { log.append("count \($0)") }
            model.increment()
            XCTAssertEqual(log, ["count 0", "will change from 0", "count 1"])
            willChange.cancel()
            counts.cancel()
        }
    }

    func testAssigningAnotherPropertysPublisherKeepsThisPropertysOwn() {
        final class Model {
            @Published var state: Int
            init(_ state: Int) { self.state = state }
        }
        let first = Model(1)
        let second = Model(2)
        first.$state = second.$state
        XCTAssertEqual(first.state, 1)
        XCTAssertEqual(second.state, 2)
        let recorder = RecordingSubscriber<Int, Never>()
        first.$state.subscribe(recorder)
        second.state = 3
        first.state = 4
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(4)])
        recorder.cancel()
    }
}
