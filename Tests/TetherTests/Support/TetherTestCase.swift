import Tether
import TetherExtras
import TetherTesting
import XCTest

/// The base of every Tether test: after each test the subscription ledger must be empty.
class TetherTestCase: XCTestCase {
    override func tearDown() {
        let live = SubscriptionLedger.liveAfterSettling()
        XCTAssertTrue(live.isEmpty, SubscriptionLedger.leakReport(live))
        super.tearDown()
    }

    /// Skips a test that reads the subscription ledger's entries, which exist in debug builds
    /// only (an optimised test run compiles the ledger out).
    func requireLedger() throws {
        try XCTSkipUnless(SubscriptionLedger.isEnabled, "reads the debug-only subscription ledger")
    }
}

/// An error for failure paths.
struct TestError: Error, Equatable, CustomStringConvertible {
    var id = 0
    var description: String { "TestError(\(id))" }
}
