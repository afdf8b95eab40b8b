import Synchronization
import Tether
import TetherExtras
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

    /// Storing in a lifetime reads what the cancellable holds, to learn when the sink finishes;
    /// a cancel on another thread takes it meanwhile.
    func testStoringInALifetimeRacingCancelCancelsOnceAndLetsTheLifetimeGo() {
        Race.run(
            setup: { () -> (AnyCancellable, RecordingPublisher<Int, Never>, Lifetime, Lifetime.Token) in
                let publisher = RecordingPublisher<Int, Never>()
                let (lifetime, token) = Lifetime.make()
                return (publisher.sink { _ in }, publisher, lifetime, token)
            },
            { $0.0.store(in: $0.2) },
            { $0.0.cancel() },
            check: { state in
                XCTAssertEqual(state.1.subscription?.events, [.requested(.unlimited), .cancelled])
                state.3.end()
                XCTAssertEqual(state.1.subscription?.events, [.requested(.unlimited), .cancelled])
                state.1.releaseSubscribers()
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

    func testCancelRacingValuesLetsGoOfTheSinksClosuresExactlyOnce() {
        final class Token {
            let releases: AtomicCounter
            init(_ releases: AtomicCounter) { self.releases = releases }
            deinit { _ = releases.increment() }
        }
        Race.run(
            setup: { () -> (Subscribers.Sink<Int, Never>, AtomicCounter, AtomicCounter) in
                let releases = AtomicCounter()
                let values = AtomicCounter()
                let token = Token(releases)
                let sink = Subscribers.Sink<Int, Never>(
                    receiveCompletion: { _ in withExtendedLifetime(token) {} },
                    receiveValue: { _ in withExtendedLifetime(token) { _ = values.increment() } })
                sink.receive(subscription: RecordingSubscription())
                return (sink, releases, values)
            },
            { $0.0.cancel() },
            { state in
                for value in 0..<20 { _ = state.0.receive(value) }
            },
            check: { state in
                XCTAssertEqual(state.1.value, 1, "the closures are let go of once, while the sink lives")
                XCTAssertLessThanOrEqual(state.2.value, 20)
                withExtendedLifetime(state.0) {}
            })
    }
}
