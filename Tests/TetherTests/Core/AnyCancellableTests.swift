@testable import TetherCore
import TetherTesting
import XCTest

/// An `AnyCancellable` on one thread: the cancellation runs once, what it held is let go of, and
/// the sink it wraps is found for a lifetime until then.
final class AnyCancellableTests: TetherTestCase {
    func testTheCancellationRunsOnceAndWhatItHeldIsLetGo() {
        var runs = 0
        weak var released: HeldObject?
        let cancellable: AnyCancellable
        do {
            let token = HeldObject()
            released = token
            cancellable = AnyCancellable { withExtendedLifetime(token) { runs += 1 } }
        }
        XCTAssertNotNil(released)
        cancellable.cancel()
        XCTAssertNil(released, "the closure is let go of by the cancel, not the deinit")
        cancellable.cancel()
        XCTAssertEqual(runs, 1)
    }

    func testTheDeinitRunsACancellationNotYetRunAndNothingMore() {
        var runs = 0
        do {
            let cancellable = AnyCancellable { runs += 1 }
            withExtendedLifetime(cancellable) {}
        }
        XCTAssertEqual(runs, 1, "let go of without a cancel: the deinit cancels")
        do {
            let cancellable = AnyCancellable { runs += 1 }
            cancellable.cancel()
        }
        XCTAssertEqual(runs, 2, "cancelled first: the deinit runs nothing more")
        let publisher = RecordingPublisher<Int, Never>()
        do {
            let cancellable = publisher.sink { _ in }
            withExtendedLifetime(cancellable) {}
        }
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
    }

    func testTheSinkItWrapsIsFoundUntilTheCancel() {
        let publisher = RecordingPublisher<Int, Never>()
        let cancellable = publisher.sink { _ in }
        XCTAssertTrue(cancellable.terminationReporter is Subscribers.Sink<Int, Never>)
        XCTAssertNil(AnyCancellable {}.terminationReporter, "a closure reports nothing")
        cancellable.cancel()
        XCTAssertNil(cancellable.terminationReporter)
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        publisher.releaseSubscribers()
    }
}

private final class HeldObject {}
