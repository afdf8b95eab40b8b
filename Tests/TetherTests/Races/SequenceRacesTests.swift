import Tether
import TetherExtras
import TetherTesting
import XCTest

/// Races on a `Publishers.Sequence` subscription.
final class SequenceRacesTests: TetherTestCase {
    func testRequestRacingRequestDeliversExactlyTheSum() {
        Race.run(
            setup: { () -> RaceSubscriber<Int, Never> in
                let subscriber = RaceSubscriber<Int, Never>(demand: .none)
                (0..<100).publisher.subscribe(subscriber)
                return subscriber
            },
            { $0.request(.max(3)) },
            { $0.request(.max(5)) },
            check: { subscriber in
                XCTAssertEqual(subscriber.values, Array(0..<8))
                XCTAssertEqual(subscriber.overlaps, 0)
                subscriber.cancel()
            })
    }

    func testRequestRacingCancelDeliversAPrefixAndReleasesEverything() {
        Race.run(
            setup: { () -> RaceSubscriber<Int, Never> in
                let subscriber = RaceSubscriber<Int, Never>(demand: .none)
                (0..<100).publisher.subscribe(subscriber)
                return subscriber
            },
            { $0.request(.max(50)) },
            { $0.cancel() },
            check: { subscriber in
                let values = subscriber.values
                XCTAssertEqual(values, Array(0..<values.count))
                XCTAssertLessThanOrEqual(values.count, 50)
                XCTAssertEqual(subscriber.completions, 0)
                // A delivery that checked for cancellation just before cancel() ran may still
                // arrive: at most that one value (no lock is held across the call).
                XCTAssertLessThanOrEqual(subscriber.signalsAfterCancel, 1)
                XCTAssertEqual(SubscriptionLedger.liveAfterSettling(), [])
            })
    }

    func testCancelRacingDeliveryStopsSignalsAndFreesTheSubscriber() {
        Race.run(
            setup: { () -> (RaceSubscriber<Int, Never>, WeakBox) in
                let subscriber = RaceSubscriber<Int, Never>(demand: .none)
                (0..<200).publisher.subscribe(subscriber)
                return (subscriber, WeakBox(subscriber))
            },
            { $0.0.request(.unlimited) },
            { $0.0.cancel() },
            check: { state in
                // At most the one delivery already past its cancellation check (no lock is held
                // across the call); never a stream of them.
                XCTAssertLessThanOrEqual(state.0.signalsAfterCancel, 1, "signals kept coming after cancel() returned")
                XCTAssertEqual(state.0.overlaps, 0)
                XCTAssertEqual(SubscriptionLedger.liveAfterSettling(), [])
            })
    }

    func testCancelRacingCancelOnTheSubscriptionReleasesTheSubscriber() {
        Race.run(
            setup: { () -> (WeakBox, any Subscription) in
                let subscriber = RaceSubscriber<Int, Never>(demand: .max(1))
                (0..<10).publisher.subscribe(subscriber)
                return (WeakBox(subscriber), subscriber.subscription!)
            },
            { $0.1.cancel() },
            { $0.1.cancel() },
            check: { state in
                XCTAssertNil(state.0.object, "the cancelled subscription still holds its subscriber")
            })
    }
}

/// A weak reference, for checking that something was freed.
final class WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
