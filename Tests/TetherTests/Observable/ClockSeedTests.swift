import Foundation
import Tether
import TetherExtras
import TetherTesting
import XCTest

// The clocks of seed 000 ("a cancellable manages the lifetime of a subscription"), with a
// PassthroughSubject of dates standing in for `Timer.publish(every:on:in:).autoconnect()`.

/// `start()` sinks with a strong `self`: a cycle until `stop()`.
private final class StrongSinkClock: ObservableObject {
    @Published private(set) var time = 0.0
    private var cancellable: AnyCancellable?
    private let ticks: PassthroughSubject<Date, Never>

    init(ticks: PassthroughSubject<Date, Never>) { self.ticks = ticks }

    func start() {
        cancellable = ticks.sink { date in
            self.time = date.timeIntervalSince1970
        }
    }

    func stop() { cancellable = nil }
}

/// `start()` uses `assign(to:on: self)`, which holds `self` strongly: still a cycle.
private final class AssignOnSelfClock: ObservableObject {
    @Published private(set) var time = 0.0
    private var cancellable: AnyCancellable?
    private let ticks: PassthroughSubject<Date, Never>

    init(ticks: PassthroughSubject<Date, Never>) { self.ticks = ticks }

    func start() {
        cancellable =
            ticks
            .map(\.timeIntervalSince1970)
            .assign(to: \.time, on: self)
    }

    func stop() { cancellable = nil }
}

/// `start()` sinks with a weak `self`: no cycle.
private final class WeakSinkClock: ObservableObject {
    @Published private(set) var time = 0.0
    private var cancellable: AnyCancellable?
    private let ticks: PassthroughSubject<Date, Never>

    init(ticks: PassthroughSubject<Date, Never>) { self.ticks = ticks }

    func start() {
        cancellable =
            ticks
            .map(\.timeIntervalSince1970)
            .sink { [weak self] time in
                self?.time = time
            }
    }
}

/// The iOS 14 form: `assign(to: &$time)`, whose subscription lives as long as `time`.
private final class PublishedClock: ObservableObject {
    @Published private(set) var time = Date(timeIntervalSince1970: 0).timeIntervalSince1970

    init(ticks: PassthroughSubject<Date, Never>) {
        ticks
            .map(\.timeIntervalSince1970)
            .assign(to: &$time)
    }
}

final class ClockSeedTests: TetherTestCase {
    private let ticks = PassthroughSubject<Date, Never>()

    private func tick(_ seconds: Double) {
        ticks.send(Date(timeIntervalSince1970: seconds))
    }

    func testStrongSinkKeepsTheClockAliveUntilStopped() {
        weak var weakClock: StrongSinkClock?
        do {
            let clock = StrongSinkClock(ticks: ticks)
            weakClock = clock
            clock.start()
        }
        tick(1)
        XCTAssertEqual(weakClock?.time, 1, "the sink's closure holds the clock: a cycle")
        weakClock?.stop()
        XCTAssertNil(weakClock)
        tick(2)
    }

    func testAssignOnSelfKeepsTheClockAliveUntilStopped() {
        weak var weakClock: AssignOnSelfClock?
        do {
            let clock = AssignOnSelfClock(ticks: ticks)
            weakClock = clock
            clock.start()
        }
        tick(3)
        XCTAssertEqual(weakClock?.time, 3, "assign(to:on:) holds its object strongly: a cycle")
        weakClock?.stop()
        XCTAssertNil(weakClock)
        tick(4)
    }

    func testWeakSinkLetsTheClockGo() {
        weak var weakClock: WeakSinkClock?
        do {
            let clock = WeakSinkClock(ticks: ticks)
            weakClock = clock
            clock.start()
            tick(5)
            XCTAssertEqual(clock.time, 5)
        }
        XCTAssertNil(weakClock)
        tick(6)
    }

    func testAssignToPublishedTiesTheSubscriptionToTheProperty() {
        weak var weakClock: PublishedClock?
        var log: [String] = []
        do {
            let clock = PublishedClock(ticks: ticks)
            weakClock = clock
            let willChange = clock.objectWillChange.sink { log.append("will change from \(clock.time)") }
            let times = clock.$time.sink { log.append("time \($0)") }
            tick(7)
            tick(8)
            XCTAssertEqual(clock.time, 8)
            willChange.cancel()
            times.cancel()
        }
        XCTAssertEqual(log, ["time 0.0", "will change from 0.0", "time 7.0", "will change from 7.0", "time 8.0"])
        XCTAssertNil(weakClock, "assign(to: &$time) must not keep the clock alive")
        XCTAssertEqual(SubscriptionLedger.snapshot(), [], "the timer subscription ends with the clock")
        tick(9)
    }
}
