import Synchronization
import Tether
import TetherTesting
import XCTest

/// Races on `AnyCancellable` and `Subscribers.Sink` cancellation.
final class CancellableRacesTests: TetherTestCase {
    func testCancelRacingCancelOnAnyCancellableRunsTheCleanupOnce() {
        Race.run(
            setup: { () -> (AnyCancellable, AtomicCounter) in
                let counter = AtomicCounter()
                return (AnyCancellable { counter.increment() }, counter)
            },
            { $0.0.cancel() },
            { $0.0.cancel() },
            check: { state in
                XCTAssertEqual(state.1.value, 1)
            })
    }

    func testCancelRacingCancelOnASinkCancelsTheSubscriptionOnce() {
        Race.run(
            setup: { () -> (AnyCancellable, RecordingPublisher<Int, Never>) in
                let publisher = RecordingPublisher<Int, Never>()
                return (publisher.sink { _ in }, publisher)
            },
            { $0.0.cancel() },
            { $0.0.cancel() },
            check: { state in
                XCTAssertEqual(state.1.subscription?.events, [.requested(.unlimited), .cancelled])
                state.1.releaseSubscribers()
            })
    }
}
