import Foundation
import Synchronization

/// The checks and timings of one run.
final class Report: Sendable {
    private let state = Mutex((failures: 0, timings: [(String, Duration)]()))
    private let clock = ContinuousClock()

    var failures: Int { state.withLock { $0.failures } }

    /// Prints a section title.
    func section(_ title: String) {
        say("\n== \(title)")
    }

    /// Prints `what` with a tick or a cross, counting the crosses.
    func check(_ condition: Bool, _ what: String) {
        say(condition ? "  ✓ \(what)" : "  ✗ \(what)")
        if !condition { state.withLock { $0.failures += 1 } }
    }

    /// Runs `body`, recording how long it took under `name`.
    func timed<R, E: Error>(_ name: String, _ body: () throws(E) -> R) throws(E) -> R {
        let start = clock.now
        defer { record(name, clock.now - start) }
        return try body()
    }

    /// Records a timing measured elsewhere.
    func record(_ name: String, _ duration: Duration) {
        state.withLock { $0.timings.append((name, duration)) }
    }

    var timings: [(String, Duration)] { state.withLock { $0.timings } }
}

/// Prints a line now, even when standard output is a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// Runs the main run loop (which on Linux also drains the main dispatch queue, where the loaders
/// and the dashboard receive) until `condition` holds or `timeout` has passed.
/// - Returns: Whether `condition` held.
@discardableResult
func runMainLoop(until condition: () -> Bool, timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        if !RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) {
            // No timer or source to wait on: don't spin.
            Thread.sleep(forTimeInterval: 0.002)
        }
    }
    return true
}

/// Runs the main run loop for `duration`.
func runMainLoop(for duration: Duration) {
    runMainLoop(until: { false }, timeout: duration)
}

extension Duration {
    /// Milliseconds, to one decimal place.
    var milliseconds: String {
        let (seconds, attoseconds) = components
        let ms = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1f ms", ms)
    }
}

/// A value shared between threads, behind a lock: a `Mutex` that closures can capture.
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    var value: Value { mutex.withLock { $0 } }

    func withLock<R: Sendable>(_ body: (inout Value) -> R) -> R {
        mutex.withLock { body(&$0) }
    }
}
