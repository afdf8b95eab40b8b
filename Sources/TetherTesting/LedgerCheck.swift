import Tether
import TetherExtras

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension SubscriptionLedger {
    /// The live subscription objects once in-flight work has had up to `timeout` seconds to let
    /// go of them; empty when nothing leaked.
    ///
    /// Tests call this at their end: a non-empty result names the objects still alive, with
    /// their chains and the lines that made them, which is a leak (or a subscription the test
    /// still holds on purpose).
    /// - Parameter timeout: How long to wait for other threads to release their references.
    /// - Returns: The entries of the subscription objects still alive.
    public static func liveAfterSettling(timeout: Double = 1) -> [Entry] {
        var waited = 0.0
        while liveCount > 0 && waited < timeout {
            usleep(1_000)
            waited += 0.001
        }
        return snapshot()
    }

    /// The live subscription objects made after `serial`, once in-flight work has had up to
    /// `timeout` seconds to let go of them.
    /// - Parameters:
    ///   - serial: A `SubscriptionLedger.currentSerial` read before the work.
    ///   - timeout: How long to wait for other threads to release their references.
    /// - Returns: The entries of the objects made since `serial` and still alive.
    public static func liveAfterSettling(since serial: UInt64, timeout: Double = 1) -> [Entry] {
        var waited = 0.0
        while !snapshot(since: serial).isEmpty && waited < timeout {
            usleep(1_000)
            waited += 0.001
        }
        return snapshot(since: serial)
    }

    /// The live subscription objects made in `scope`, once in-flight work has had up to
    /// `timeout` seconds to let go of them.
    /// - Parameters:
    ///   - scope: A scope opened by `SubscriptionLedger.withScope(_:)`.
    ///   - timeout: How long to wait for other threads to release their references.
    /// - Returns: The entries of the objects made in the scope and still alive.
    public static func liveAfterSettling(in scope: Scope, timeout: Double = 1) -> [Entry] {
        var waited = 0.0
        while !snapshot(in: scope).isEmpty && waited < timeout {
            usleep(1_000)
            waited += 0.001
        }
        return snapshot(in: scope)
    }

    /// A report for a test failure: "potential leak of N objects:" and one line per object
    /// with its chain and, when known, the line that made it.
    /// - Parameter live: What ``liveAfterSettling(timeout:)`` returned.
    /// - Returns: The report.
    public static func leakReport(_ live: [Entry]) -> String {
        "potential leak of \(live.count) objects:" + live.map { "\n  - \($0)" }.joined()
    }
}
