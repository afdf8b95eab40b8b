// Seed 000 ("memory management in Combine"), its Clock samples compiled as the article writes
// them, with a real `Timer.publish(every: 1, on: .main, in: .default)`. What the article elides
// with "..." is filled in from its first sample. On Linux nothing runs `RunLoop.main` for a test:
// the tests run it themselves (`RunLoop.main.run(until:)`) while they wait for ticks.
import Foundation
import Tether
import TetherExtras
import TetherTesting
import XCTest

/// The first sample: `sink` capturing `self` strongly.
enum StrongSinkSample {
    class Clock: ObservableObject {
        @Published private(set) var time = Date().timeIntervalSince1970
        private var cancellable: AnyCancellable?

        func start() {
            cancellable = Timer.publish(
                every: 1,
                on: .main,
                in: .default
            )
            .autoconnect()
            .sink { date in
                self.time = date.timeIntervalSince1970
            }
        }

        func stop() {
            cancellable = nil
        }
    }
}

/// The second sample: `assign(to:on: self)`.
enum AssignOnSelfSample {
    class Clock: ObservableObject {
        @Published private(set) var time = Date().timeIntervalSince1970
        private var cancellable: AnyCancellable?

        func start() {
            cancellable = Timer.publish(
                every: 1,
                on: .main,
                in: .default
            )
            .autoconnect()
            .map(\.timeIntervalSince1970)
            .assign(to: \.time, on: self)
        }

        func stop() {
            cancellable = nil
        }
    }
}

/// The third sample: `sink` with `[weak self]`.
enum WeakSinkSample {
    class Clock: ObservableObject {
        @Published private(set) var time = Date().timeIntervalSince1970
        private var cancellable: AnyCancellable?

        func start() {
            cancellable = Timer.publish(
                every: 1,
                on: .main,
                in: .default
            )
            .autoconnect()
            .map(\.timeIntervalSince1970)
            .sink { [weak self] time in
                self?.time = time
            }
        }

        func stop() {
            cancellable = nil
        }
    }
}

/// The fourth sample: `assign(to: &$time)` from `init`.
enum AssignToPublishedSample {
    class Clock: ObservableObject {
        @Published private(set) var time = Date().timeIntervalSince1970

        init() {
            Timer.publish(
                every: 1,
                on: .main,
                in: .default
            )
            .autoconnect()
            .map(\.timeIntervalSince1970)
            .assign(to: &$time)
        }
    }
}

/// Runs the main run loop (this test's thread) until `condition` holds or `timeout` passes.
@discardableResult
func runMainRunLoop(timeout: TimeInterval, until condition: () -> Bool = { false }) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if condition() { return true }
        RunLoop.main.run(until: min(deadline, Date(timeIntervalSinceNow: 0.02)))
    }
    return condition()
}

final class ClockSeedTests: XCTestCase {
    override func tearDown() {
        let live = SubscriptionLedger.liveAfterSettling()
        XCTAssertTrue(live.isEmpty, SubscriptionLedger.leakReport(live))
        super.tearDown()
    }

    func testStrongSelfClockStaysAliveUntilStopped() {
        weak var weakClock: StrongSinkSample.Clock?
        var initial = 0.0
        do {
            let clock = StrongSinkSample.Clock()
            weakClock = clock
            initial = clock.time
            clock.start()
        }
        XCTAssertNotNil(weakClock, "the sink's closure holds the clock: a cycle")
        XCTAssertTrue(runMainRunLoop(timeout: 5) { (weakClock?.time ?? 0) > initial }, "the timer ticked")
        XCTAssertNotNil(weakClock, "still alive after ticking")
        weakClock?.stop()
        XCTAssertNil(weakClock, "stop() breaks the cycle")
    }

    func testAssignOnSelfClockIsRetainedUntilStopped() {
        weak var weakClock: AssignOnSelfSample.Clock?
        var initial = 0.0
        do {
            let clock = AssignOnSelfSample.Clock()
            weakClock = clock
            initial = clock.time
            clock.start()
        }
        XCTAssertNotNil(weakClock, "assign(to:on:) holds its object strongly")
        XCTAssertTrue(runMainRunLoop(timeout: 5) { (weakClock?.time ?? 0) > initial }, "the timer ticked")
        weakClock?.stop()
        XCTAssertNil(weakClock)
    }

    func testWeakSelfClockDeallocatesAndItsTimerStops() {
        weak var weakClock: WeakSinkSample.Clock?
        do {
            let clock = WeakSinkSample.Clock()
            weakClock = clock
            let initial = clock.time
            clock.start()
            XCTAssertTrue(runMainRunLoop(timeout: 5) { clock.time > initial }, "the timer ticked")
            if SubscriptionLedger.isEnabled {  // the ledger is compiled out of optimised builds
                XCTAssertTrue(
                    SubscriptionLedger.snapshot().contains { $0.type.hasPrefix("TimerSubscription") },
                    "the timer's subscription")
            }
        }
        XCTAssertNil(weakClock, "nothing but the caller held the clock")
        XCTAssertEqual(SubscriptionLedger.snapshot(), [], "the timer subscription ended with the clock")
        runMainRunLoop(timeout: 1.2)
    }

    func testAssignToPublishedDoesNotRetainTheClock() {
        weak var weakClock: AssignToPublishedSample.Clock?
        do {
            let clock = AssignToPublishedSample.Clock()
            weakClock = clock
            let initial = clock.time
            var seen: [Double] = []
            let watcher = clock.$time.sink { seen.append($0) }
            XCTAssertTrue(runMainRunLoop(timeout: 5) { clock.time > initial }, "the timer ticked")
            XCTAssertEqual(seen.first, initial)
            XCTAssertEqual(seen.last, clock.time)
            watcher.cancel()
        }
        XCTAssertNil(weakClock, "assign(to: &$time) ties the subscription to the property, not to a cycle")
        XCTAssertEqual(SubscriptionLedger.snapshot(), [], "the timer subscription ended with the clock")
    }
}
