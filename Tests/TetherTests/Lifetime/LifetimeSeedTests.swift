import Foundation
import Tether
import TetherExtras
import TetherTesting
import XCTest

// The seeds' pitfalls, each found by the leak helpers with the chain (and, for TetherExtras'
// entry points, the line that made it), and each Tether answer shown to let the owner go.

/// Seed 000: a clock whose `start()` sinks with a strong `self`.
private final class StrongClock {
    var time = 0.0
    var cancellable: AnyCancellable?

    func start(_ ticks: PassthroughSubject<Double, Never>) {
        cancellable = ticks.sink { time in self.time = time }
    }
}

/// Seed 000: `assign(to:on: self)` holds `self` strongly too.
private final class AssignClock {
    var time = 0.0
    var cancellable: AnyCancellable?

    func start(_ ticks: PassthroughSubject<Double, Never>) {
        cancellable = ticks.map { $0 * 2 }.assign(to: \.time, on: self)
    }
}

/// Seed 000's `weakAssign`, now one call, and seed 001's `rac_liftSelector` as a method sink.
private final class WeakClock {
    var time = 0.0
    var validated: [Double] = []
    let bag = CancellableBag()

    func start(_ ticks: PassthroughSubject<Double, Never>) {
        ticks.assign(to: \.time, on: self, ownership: .weak).store(in: bag)
        ticks.sink(weak: self, WeakClock.validate).store(in: bag)
    }

    func validate(_ time: Double) { validated.append(time) }
}

/// A notification publisher made with `create`, as ReactiveCocoa's `rac_addObserverForName`.
private func notifications(
    _ center: NotificationCenter, _ name: Notification.Name, cleanups: AtomicCounter
) -> AnyPublisher<Notification, Never> {
    AnyPublisher<Notification, Never>.create { subscriber in
        let observer = center.addObserver(forName: name, object: nil, queue: nil) { note in
            subscriber.send(note)
        }
        return AnyCancellable {
            cleanups.increment()
            center.removeObserver(observer)
        }
    }
}

/// Seed 003: a screen observing a notification until it deallocates, with a sink that
/// captures `self` strongly: NotificationCenter → observer block → subscriber → sink closure →
/// self, so the lifetime never ends.
private final class StrongScreen {
    private let token = Lifetime.Token()
    var title = "start"

    func end() { token.end() }

    init(center: NotificationCenter, name: Notification.Name, cleanups: AtomicCounter) {
        let lifetime = Lifetime(token)
        notifications(center, name, cleanups: cleanups).prefix(during: lifetime)
            .sink { _ in self.title = "" }
            .store(in: lifetime)
    }
}

/// Seed 003 answered: the sink holds the screen weakly, so the screen goes, its token ends the
/// lifetime, and the stream finishes and removes its observer.
private final class WeakScreen {
    private let token = Lifetime.Token()
    var title = "start"

    init(center: NotificationCenter, name: Notification.Name, cleanups: AtomicCounter) {
        let lifetime = Lifetime(token)
        notifications(center, name, cleanups: cleanups).prefix(during: lifetime)
            .sink(weak: self) { screen, _ in screen.title = "" }
            .store(in: lifetime)
    }
}

final class LifetimeSeedTests: TetherTestCase {
    func testStrongSelfSinkCycleIsReportedWithItsChain() throws {
        try requireLedger()
        let ticks = PassthroughSubject<Double, Never>()
        let outcome = LeakCheck.deallocation(of: StrongClock(), timeout: 0.05) { clock in
            clock.start(ticks)
            ticks.send(1)
        }
        let message = try? XCTUnwrap(outcome.message)
        XCTAssertTrue(message?.contains("StrongClock was not deallocated") == true, message ?? "")
        // Combine's `sink(receiveValue:)` takes no call site: the report names the chain only.
        XCTAssertEqual(
            outcome.live.map(\.description).filter { $0.hasPrefix("Sink") }, ["Sink ← PassthroughSubject"],
            message ?? "")
        XCTAssertEqual(outcome.survivor?.time, 1)
        outcome.survivor?.cancellable = nil
    }

    func testAssignOnSelfCycleIsReportedAsAnAssignChain() throws {
        try requireLedger()
        let ticks = PassthroughSubject<Double, Never>()
        let outcome = LeakCheck.deallocation(of: AssignClock(), timeout: 0.05) { $0.start(ticks) }
        XCTAssertEqual(
            outcome.live.map(\.chain).filter { $0.hasPrefix("Assign") }, ["Assign ← Map ← PassthroughSubject"])
        XCTAssertNil(outcome.live.first?.file, "Combine's assign(to:on:) takes no call site")
        XCTAssertNil(outcome.live.first?.line)
        outcome.survivor?.cancellable = nil
    }

    func testWeakAssignAndMethodSinkLetTheClockGoAndStopAtTheNextEvent() {
        let ticks = PassthroughSubject<Double, Never>()
        var kept = CancellableBag()
        assertDeallocated(WeakClock()) { clock in
            clock.start(ticks)
            ticks.send(3)
            XCTAssertEqual(clock.time, 3)
            XCTAssertEqual(clock.validated, [3])
            // Hand the bag to someone who outlives the clock: only the weak references remain.
            kept = CancellableBag()
            ticks.assign(to: \.time, on: clock, ownership: .weak).store(in: kept)
        }
        XCTAssertEqual(kept.count, 1, "nothing has told the subscriber that the clock is gone yet")
        ticks.send(4)
        XCTAssertEqual(kept.count, 0, "the next event cancelled it, and the bag dropped it")
    }

    func testNotificationCycleOfSeed003IsReportedWithItsChain() throws {
        try requireLedger()
        let center = NotificationCenter()
        let name = Notification.Name("didBecomeActive")
        let cleanups = AtomicCounter()
        let outcome = LeakCheck.deallocation(
            of: StrongScreen(center: center, name: name, cleanups: cleanups), timeout: 0.05
        ) { _ in
            center.post(name: name, object: nil)
        }
        let sink = outcome.live.first { $0.chain.hasPrefix("Sink") }
        XCTAssertEqual(sink?.chain, "Sink ← PrefixUntilOutput ← AnyPublisher ← CreatePublisher")
        XCTAssertNil(sink?.line, "Combine's sink(receiveValue:) takes no call site")
        XCTAssertEqual(outcome.survivor?.title, "")
        XCTAssertEqual(cleanups.value, 0, "the observer is still registered")
        XCTAssertNotNil(outcome.message)
        // Break the cycle from outside: end the screen's lifetime as its deinit never will.
        outcome.survivor?.end()
        XCTAssertEqual(cleanups.value, 1)
    }

    func testWeakSinkAnswerToSeed003DeallocatesAndRemovesTheObserver() {
        let center = NotificationCenter()
        let name = Notification.Name("didBecomeActive")
        let cleanups = AtomicCounter()
        assertDeallocated(WeakScreen(center: center, name: name, cleanups: cleanups)) { screen in
            center.post(name: name, object: nil)
            XCTAssertEqual(screen.title, "")
        }
        XCTAssertEqual(cleanups.value, 1, "the lifetime's end finished the stream and removed the observer")
        center.post(name: name, object: nil)
        XCTAssertEqual(cleanups.value, 1)
    }

    func testFiniteStreamReleasesItsStrongSubscriberAfterCompletion() {
        // Seed 001: a finite signal breaks the cycle itself when it completes.
        let ticks = PassthroughSubject<Double, Never>()
        assertDeallocated(StrongClock()) { clock in
            clock.start(ticks)
            ticks.send(1)
            ticks.send(completion: .finished)
        }
    }
}
