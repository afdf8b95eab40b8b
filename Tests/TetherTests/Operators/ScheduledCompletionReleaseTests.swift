import Foundation
import Tether
import TetherTesting
import XCTest

/// An operator that holds its subscriber for the subscription's life (`catch`, as in Combine)
/// under one that schedules its completion (`receive(on:)`, `delay`): once the completion is
/// delivered, nothing is left alive (the test case fails on any live subscription).
final class ScheduledCompletionReleaseTests: TetherTestCase {
    func testCatchOfJustUnderReceiveOnLetsEverythingGoOnceCompleted() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.catch { _ in Just(-1) }.receive(on: DispatchQueue.main).subscribe(recorder)
        subject.send(completion: .failure(TestError(id: 1)))
        let deadline = Date() + 2
        while recorder.completion == nil, Date() < deadline { RunLoop.main.run(until: Date() + 0.01) }
        XCTAssertEqual(recorder.events, [.subscription, .value(-1), .completion(.finished)])
    }

    func testCatchOfJustUnderDelayLetsEverythingGoOnceCompleted() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.catch { _ in Just(-1) }.delay(for: .milliseconds(1), scheduler: DispatchQueue.main).subscribe(recorder)
        subject.send(completion: .failure(TestError(id: 1)))
        let deadline = Date() + 2
        while recorder.completion == nil, Date() < deadline { RunLoop.main.run(until: Date() + 0.01) }
        XCTAssertEqual(recorder.events, [.subscription, .value(-1), .completion(.finished)])
    }
}
