import Foundation
import Synchronization
import Tether
import TetherCore
import XCTest

/// Runs an async test body from a synchronous XCTest method, failing after `timeout` seconds.
func runAsync(
    timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line,
    _ body: @escaping @Sendable () async throws -> Void
) {
    let done = DispatchSemaphore(value: 0)
    let failure = Locked<String?>(nil)
    Task {
        do { try await body() } catch { failure.withLock { $0 = "threw \(error)" } }
        done.signal()
    }
    if done.wait(timeout: .now() + timeout) == .timedOut {
        XCTFail("async test body did not finish within \(timeout)s", file: file, line: line)
        return
    }
    if let message = failure.withLock({ $0 }) { XCTFail(message, file: file, line: line) }
}

/// Waits until `condition` holds or `timeout` seconds pass; returns whether it held.
@discardableResult
func eventually(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(500)
    }
    return true
}

/// Counts how many async calls run at once, and the most that ever did.
final class ConcurrencyGauge: Sendable {
    private let state = Locked<(now: Int, most: Int, started: Int)>((0, 0, 0))

    func enter() {
        state.withLock {
            $0.now += 1
            $0.started += 1
            $0.most = max($0.most, $0.now)
        }
    }

    func leave() { state.withLock { $0.now -= 1 } }

    var most: Int { state.withLock { $0.most } }
    var now: Int { state.withLock { $0.now } }
    var started: Int { state.withLock { $0.started } }
}

/// A thread-safe list for values recorded from tasks.
final class SharedLog<Element: Sendable>: Sendable {
    private let items = Locked<[Element]>([])
    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

/// An async sequence that counts the calls of its iterator's `next()`: a way to see how far a
/// consumer pulled it.
struct CountingAsyncSequence: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never
    let limit: Int
    let pulls: AtomicCounter

    struct AsyncIterator: AsyncIteratorProtocol {
        var current = 0
        let limit: Int
        let pulls: AtomicCounter

        mutating func next() async -> Int? {
            pulls.increment()
            guard current < limit else { return nil }
            defer { current += 1 }
            return current
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(limit: limit, pulls: pulls) }
}
