import Foundation
import Synchronization
import Tether
import TetherTesting
import XCTest

/// A thread that runs its own run loop until stopped, for timers that must not depend on the
/// test thread running `RunLoop.main`.
final class RunLoopThread: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic(false)
    /// Set once, before `ready` is signalled.
    private(set) var runLoop: RunLoop!
    private(set) var thread: Thread!

    init() {
        let thread = Thread { [self] in
            runLoop = RunLoop.current
            ready.signal()
            while !stopped.load(ordering: .acquiring) {
                if !RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.02)) {
                    usleep(2_000)
                }
            }
            finished.signal()
        }
        self.thread = thread
        thread.start()
        ready.wait()
    }

    func stop() {
        stopped.store(true, ordering: .releasing)
        finished.wait()
    }
}

/// Runs the current thread's run loop until `condition` holds or `timeout` passes.
@discardableResult
func runCurrentRunLoop(timeout: TimeInterval, until condition: () -> Bool = { false }) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if condition() { return true }
        _ = RunLoop.current.run(mode: .default, before: min(deadline, Date(timeIntervalSinceNow: 0.01)))
    }
    return condition()
}

/// Waits, without running the run loop, until `condition` holds or `timeout` passes.
@discardableResult
func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(1_000)
    }
    return condition()
}

final class TimerPublisherTests: TetherTestCase {
    func testNothingIsPublishedUntilConnectAndNothingAfterTheConnectionIsCancelled() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
        let recorder = RecordingSubscriber<Date, Never>()
        publisher.subscribe(recorder)
        runCurrentRunLoop(timeout: 0.1)
        XCTAssertEqual(recorder.events.count, 1, "not connected yet: \(recorder.events)")

        let connection = publisher.connect()
        XCTAssertTrue(runCurrentRunLoop(timeout: 5) { recorder.values.count >= 3 })
        connection.cancel()
        let count = recorder.values.count
        runCurrentRunLoop(timeout: 0.1)
        XCTAssertEqual(recorder.values.count, count, "a cancelled connection stops the timer")
        XCTAssertEqual(recorder.values, recorder.values.sorted(), "the dates of successive ticks")
        XCTAssertNil(recorder.completion, "the timer never completes")
        if let subscription = recorder.subscription {
            XCTAssertFalse(subscription is any CustomStringConvertible, "Combine's describes nothing")
            XCTAssertFalse(subscription is any CustomReflectable)
            XCTAssertFalse(subscription is any CustomPlaygroundDisplayConvertible)
        } else {
            XCTFail("the recorder keeps its subscription")
        }
        recorder.cancel()
    }

    func testTicksFindingNoDemandAreDropped() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
        let recorder = RecordingSubscriber<Date, Never>(demand: .max(2))
        let witness = RecordingSubscriber<Date, Never>()
        publisher.subscribe(recorder)
        publisher.subscribe(witness)
        let connection = publisher.connect()
        XCTAssertTrue(runCurrentRunLoop(timeout: 5) { witness.values.count >= 5 })
        XCTAssertEqual(recorder.values.count, 2, "two were demanded")
        XCTAssertEqual(Array(witness.values.prefix(2)), recorder.values, "both saw the same first two ticks")

        recorder.request(.max(1))
        let seen = witness.values.count
        XCTAssertTrue(runCurrentRunLoop(timeout: 5) { witness.values.count > seen + 1 })
        XCTAssertEqual(recorder.values.count, 3)
        XCTAssertEqual(recorder.values.last, witness.values[seen], "the next tick after the request")
        connection.cancel()
        recorder.cancel()
        witness.cancel()
    }

    func testAutoconnectStartsOnSubscriptionAndCancellingStopsTheTimer() {
        var dates: [Date] = []
        let cancellable = Timer.publish(every: 0.01, on: .current, in: .default)
            .autoconnect()
            .sink { dates.append($0) }
        XCTAssertTrue(runCurrentRunLoop(timeout: 5) { dates.count >= 3 })
        cancellable.cancel()
        let count = dates.count
        runCurrentRunLoop(timeout: 0.1)
        XCTAssertEqual(dates.count, count)
    }

    func testCancellingTheConnectionInvalidatesTheTimer() {
        let loop = RunLoopThread()
        defer { loop.stop() }
        weak var weakPublisher: Timer.TimerPublisher?
        let ticks = Atomic(0)
        do {
            let publisher = Timer.publish(every: 0.01, on: loop.runLoop, in: .default)
            weakPublisher = publisher
            let cancellable = publisher.autoconnect().sink { _ in ticks.add(1, ordering: .relaxed) }
            XCTAssertTrue(waitUntil(timeout: 5) { ticks.load(ordering: .relaxed) >= 3 })
            cancellable.cancel()
        }
        // The invalidated timer let go of the connection, and with it of the publisher.
        XCTAssertTrue(waitUntil(timeout: 5) { weakPublisher == nil }, "the timer still holds the publisher")
        let count = ticks.load(ordering: .relaxed)
        usleep(50_000)
        XCTAssertEqual(ticks.load(ordering: .relaxed), count)
    }

    func testAConnectionRunsUntilCancelledEvenWhenNobodyKeepsThePublisher() {
        let ticks = Atomic(0)
        weak var weakPublisher: Timer.TimerPublisher?
        var connection: (any Cancellable)?
        var subscription: AnyCancellable?
        do {
            let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
            weakPublisher = publisher
            subscription = publisher.sink { _ in ticks.add(1, ordering: .relaxed) }
            connection = publisher.connect()
        }
        XCTAssertNotNil(weakPublisher)
        XCTAssertTrue(runCurrentRunLoop(timeout: 5) { ticks.load(ordering: .relaxed) >= 2 })
        XCTAssertNotNil(subscription)
        connection?.cancel()
        connection = nil
        subscription = nil
        XCTAssertNil(weakPublisher)
    }

    func testTicksArriveOnTheThreadOfTheGivenRunLoop() {
        let loop = RunLoopThread()
        defer { loop.stop() }
        let onLoopThread = Mutex<[Bool]>([])
        let expected = loop.thread!
        let cancellable = Timer.publish(every: 0.01, on: loop.runLoop, in: .default)
            .autoconnect()
            .sink { _ in
                let isLoopThread = Thread.current == expected
                onLoopThread.withLock { $0.append(isLoopThread) }
            }
        XCTAssertTrue(waitUntil(timeout: 5) { onLoopThread.withLock { $0.count } >= 2 })
        cancellable.cancel()
        XCTAssertFalse(onLoopThread.withLock { $0.contains(false) })
    }

    func testConnectingTwiceWhileConnectedReturnsTheSameConnection() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: .default)
        let first = publisher.connect()
        let second = publisher.connect()
        XCTAssertTrue((first as AnyObject) === (second as AnyObject))
        first.cancel()
        let third = publisher.connect()
        XCTAssertFalse((first as AnyObject) === (third as AnyObject), "after a cancel, connect starts again")
        let recorder = RecordingSubscriber<Date, Never>()
        publisher.subscribe(recorder)
        XCTAssertTrue(runCurrentRunLoop(timeout: 5) { recorder.values.count >= 1 })
        third.cancel()
        recorder.cancel()
    }

    func testTheFirstTickComesOneIntervalAfterConnecting() {
        let publisher = Timer.publish(every: 0.3, on: .current, in: .default)
        let recorder = RecordingSubscriber<Date, Never>()
        publisher.subscribe(recorder)
        let connected = Date()
        let connection = publisher.connect()
        XCTAssertTrue(runCurrentRunLoop(timeout: 5) { !recorder.values.isEmpty })
        XCTAssertGreaterThanOrEqual(recorder.values[0].timeIntervalSince(connected), 0.25)
        connection.cancel()
        recorder.cancel()
    }

    func testPublishKeepsItsParametersButTheToleranceAsCombineDoes() {
        let publisher = Timer.publish(every: 2, tolerance: 0.5, on: .main, in: .common)
        XCTAssertEqual(publisher.interval, 2)
        XCTAssertNil(publisher.tolerance)
        XCTAssertTrue(publisher.runLoop === RunLoop.main)
        XCTAssertEqual(publisher.mode, .common)
        XCTAssertNil(publisher.options)
        let direct = Timer.TimerPublisher(interval: 2, tolerance: 0.5, runLoop: .main, mode: .common)
        XCTAssertEqual(direct.tolerance, 0.5)
    }
}
