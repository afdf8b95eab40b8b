import Tether

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
    /// Tests call this at their end: a non-empty result names the types still alive, which is
    /// a leak (or a subscription the test still holds on purpose).
    /// - Parameter timeout: How long to wait for other threads to release their references.
    /// - Returns: The type names of the subscription objects still alive.
    public static func liveAfterSettling(timeout: Double = 1) -> [String] {
        var waited = 0.0
        while liveCount > 0 && waited < timeout {
            usleep(1_000)
            waited += 0.001
        }
        return snapshot()
    }

    /// A one-line report for a test failure: "potential leak of N objects: A, B".
    /// - Parameter live: What ``liveAfterSettling(timeout:)`` returned.
    /// - Returns: The report.
    public static func leakReport(_ live: [String]) -> String {
        "potential leak of \(live.count) objects: \(live.joined(separator: ", "))"
    }
}
