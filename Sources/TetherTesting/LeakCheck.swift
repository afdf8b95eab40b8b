import Tether
import TetherExtras

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Leak checks that return their findings instead of failing a test, so that a test can
/// assert on the report itself (for example that a known cycle is found and named), and so
/// that the XCTest and Swift Testing assertions share one implementation.
///
/// They rely on the `SubscriptionLedger`, which only debug builds keep: in release builds no
/// subscription is ever reported.
public enum LeakCheck {
    /// The outcome of ``deallocation(of:timeout:after:)``.
    public struct Deallocation<Object: AnyObject> {
        /// The object, when it was still alive after the work; `nil` when it was deallocated.
        /// Holding it keeps it alive: a test that expects a leak breaks the cycle through it.
        public let survivor: Object?

        /// The subscriptions made while the object was alive and still alive afterwards.
        public let live: [SubscriptionLedger.Entry]

        /// The failure message, or `nil` when the object was deallocated.
        public var message: String? {
            guard survivor != nil else { return nil }
            let header = "\(Object.self) was not deallocated"
            guard !live.isEmpty else {
                return header + "; no Tether subscription made while it was alive is still alive"
            }
            return header + "; \(live.count) subscriptions made while it was alive are still alive:"
                + live.map { "\n  - \($0)" }.joined()
        }
    }

    /// Runs `body` and returns the subscription objects it made that are still alive after up
    /// to `timeout` seconds; empty when it left nothing behind.
    ///
    /// Counts every object made while `body` ran, on any thread: run it where no other test
    /// makes subscriptions at the same time (XCTest runs tests one at a time).
    /// - Parameters:
    ///   - timeout: How long to let other threads release their references.
    ///   - body: The work to check.
    /// - Returns: The live objects' entries, oldest first.
    public static func liveSubscriptions(
        timeout: Double = 1, after body: () throws -> Void
    ) rethrows -> [SubscriptionLedger.Entry] {
        let start = SubscriptionLedger.currentSerial
        try body()
        return SubscriptionLedger.liveAfterSettling(since: start, timeout: timeout)
    }

    /// Like ``liveSubscriptions(timeout:after:)``, but counting only the objects made by the
    /// task running `body` (a task-local scope), so that tests running in parallel do not see
    /// each other's subscriptions. Objects made on threads `body` hands work to are not counted.
    /// - Parameters:
    ///   - timeout: How long to let other threads release their references.
    ///   - body: The work to check.
    /// - Returns: The live objects' entries, oldest first.
    public static func liveSubscriptionsInScope(
        timeout: Double = 1, after body: () async throws -> Void
    ) async rethrows -> [SubscriptionLedger.Entry] {
        try await SubscriptionLedger.withScope { scope in
            try await body()
            return SubscriptionLedger.liveAfterSettling(in: scope, timeout: timeout)
        }
    }

    /// Makes an object, runs `body` with it, lets go of it, and reports whether it was
    /// deallocated; when it was not, lists the subscriptions made while it was alive.
    ///
    /// The object is made inside the check, so that the check holds the only reference the
    /// caller gave it: pass the initialiser call itself (`deallocation(of: Screen())`).
    /// - Parameters:
    ///   - make: Makes the object.
    ///   - timeout: How long to let other threads release their references.
    ///   - body: The work to do with the object.
    /// - Returns: The outcome, with the survivor and the live subscriptions when it leaked.
    public static func deallocation<Object: AnyObject>(
        of make: @autoclosure () throws -> Object, timeout: Double = 1, after body: (Object) throws -> Void
    ) rethrows -> Deallocation<Object> {
        let start = SubscriptionLedger.currentSerial
        weak var weakObject: Object?
        try {
            let object = try make()
            weakObject = object
            try body(object)
        }()
        var waited = 0.0
        while weakObject != nil && waited < timeout {
            usleep(1_000)
            waited += 0.001
        }
        guard let survivor = weakObject else {
            return Deallocation(survivor: nil, live: [])
        }
        return Deallocation(survivor: survivor, live: SubscriptionLedger.snapshot(since: start))
    }
}
