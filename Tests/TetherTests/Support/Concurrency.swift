import Foundation
import Synchronization

/// A thread-safe counter for concurrency tests.
final class AtomicCounter: Sendable {
    private let storage = Atomic<Int>(0)

    @discardableResult
    func increment() -> Int { storage.add(1, ordering: .sequentiallyConsistent).newValue }

    @discardableResult
    func decrement() -> Int { storage.subtract(1, ordering: .sequentiallyConsistent).newValue }

    var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}

/// Runs work on several threads at once and waits for all of them.
enum DispatchQueueStandIn {
    static func concurrentPerform(iterations: Int, _ body: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
    }
}

/// Carries a non-Sendable value into a concurrency test that synchronises on its own.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
