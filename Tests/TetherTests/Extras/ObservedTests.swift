import Foundation
import Observation
import Tether
import TetherTesting
import XCTest

@Observable
final class ObservedModel: @unchecked Sendable {
    var count = 0
    var name = "a"
    var unrelated = 0

    var summary: String { "\(name)\(count)" }
}

final class ObservedTests: TetherTestCase {
    func testPublishesTheCurrentValueThenEachChangeAfterTheSchedulerRuns() {
        let model = ObservedModel()
        let scheduler = DispatchQueue.test
        let recorder = RecordingSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(0)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Observed"])
        model.count = 1
        // Observation reported the change from willSet: nothing is read until the re-read runs.
        XCTAssertEqual(recorder.events, [.subscription, .value(0)])
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .value(1)])
        model.count = 2
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .value(1), .value(2)])
        recorder.cancel()
    }

    func testTheReReadPublishesTheNewValueNotTheOldOne() {
        let model = ObservedModel()
        let scheduler = DispatchQueue.test
        var seen: [Int] = []
        let cancellable = model.publisher(for: \.count, scheduler: scheduler).sink { seen.append($0) }
        model.count = 41
        model.count += 1
        scheduler.advance()
        XCTAssertEqual(seen, [0, 42])
        cancellable.cancel()
    }

    func testChangesBeforeTheReReadCoalesce() {
        let model = ObservedModel()
        let scheduler = DispatchQueue.test
        let recorder = RecordingSubscriber<Int, Never>()
        model.publisher(for: \.count, scheduler: scheduler).subscribe(recorder)
        model.count = 1
        model.count = 2
        model.count = 3
        XCTAssertEqual(scheduler.scheduledCount, 1)
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .value(3)])
        recorder.cancel()
    }

    func testEveryPropertyTheKeyPathReadsIsTrackedAndOthersAreNot() {
        let model = ObservedModel()
        let scheduler = DispatchQueue.test
        let recorder = RecordingSubscriber<String, Never>()
        model.publisher(for: \.summary, scheduler: scheduler).subscribe(recorder)
        model.unrelated = 9
        XCTAssertEqual(scheduler.scheduledCount, 0)
        model.name = "b"
        scheduler.advance()
        model.count = 5
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value("a0"), .value("b0"), .value("b5")])
        recorder.cancel()
    }

    func testNothingIsReadBeforeDemandAndAValueWaitsForDemandReplacedByNewerOnes() {
        let model = ObservedModel()
        let scheduler = DispatchQueue.test
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        model.publisher(for: \.count, scheduler: scheduler).subscribe(recorder)
        model.count = 1
        XCTAssertEqual(scheduler.scheduledCount, 0)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        model.count = 2
        scheduler.advance()
        model.count = 3
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3)])
        model.count = 4
        scheduler.advance()
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3), .value(4)])
        recorder.cancel()
    }

    func testCancelStopsDeliveryAndReleasesTheSubscriberAndTheObject() {
        let scheduler = DispatchQueue.test
        assertDeallocated(RecordingSubscriber<Int, Never>()) { recorder in
            assertDeallocated(ObservedModel()) { model in
                model.publisher(for: \.count, scheduler: scheduler).subscribe(recorder)
                model.count = 1
                recorder.cancel()
                scheduler.advance()
                model.count = 2
                scheduler.advance()
                XCTAssertEqual(recorder.events, [.subscription, .value(0)])
            }
        }
    }
}
