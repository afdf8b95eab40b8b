import Tether
import TetherTesting
import XCTest

final class OptionalPublisherTests: TetherTestCase {
    func testValueIsDeliveredOnDemandThenFinishes() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Optional(3).publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Optional"])
    }

    func testNilFinishesImmediatelyWithTheEmptySubscription() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Optional<Int>.none.publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Empty"])
    }

    func testCancelBeforeDemandReleasesTheSubscriberAndSendsNothing() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
            weakRecorder = recorder
            Optional<Int>.Publisher(1).subscribe(recorder)
            subscription = recorder.subscription
        }
        subscription?.cancel()
        XCTAssertNil(weakRecorder, "a cancelled subscription must let go of its subscriber")
        subscription?.request(.max(1))
        subscription = nil
    }

    func testEquatable() {
        XCTAssertEqual(Optional(1).publisher, Optional<Int>.Publisher(1))
        XCTAssertNotEqual(Optional(1).publisher, Optional<Int>.Publisher(nil))
    }

    func testSpecialisedOperatorsReturnOptionalPublishers() {
        let mapped: Optional<String>.Publisher = Optional(2).publisher.map { "\($0)" }
        let kept: Optional<Int>.Publisher = Optional(2).publisher.filter { $0 == 2 }
        let dropped: Optional<Int>.Publisher = Optional(2).publisher.filter { $0 == 3 }
        let parsed: Optional<Int>.Publisher = Optional("7").publisher.compactMap { Int($0) }
        let unparsed: Optional<Int>.Publisher = Optional("q").publisher.compactMap { Int($0) }
        XCTAssertEqual(mapped.output, "2")
        XCTAssertEqual(kept.output, 2)
        XCTAssertNil(dropped.output)
        XCTAssertEqual(parsed.output, 7)
        XCTAssertNil(unparsed.output)
        XCTAssertNil(Optional<Int>.none.publisher.map { $0 + 1 }.output)
    }
}
