import Tether
import TetherExtras
import XCTest

/// Fails the current test when `body` leaves Tether subscription objects alive, listing each
/// one's chain and, when its entry point recorded one, the line that made it.
///
/// Counts every object made while `body` runs, on any thread (XCTest runs one test at a time).
/// - Parameters:
///   - timeout: How long to let other threads release their references.
///   - file: The file to attribute the failure to.
///   - line: The line to attribute the failure to.
///   - body: The work to check.
public func assertNoLiveSubscriptions(
    timeout: Double = 1, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
) rethrows {
    let live = try LeakCheck.liveSubscriptions(timeout: timeout, after: body)
    if !live.isEmpty {
        XCTFail(SubscriptionLedger.leakReport(live), file: file, line: line)
    }
}

/// Fails the current test unless the object `make` returns is deallocated once `body` is done
/// with it; the failure lists the subscriptions made while it was alive, with their chains and
/// the lines that made them, which is where a reference cycle through a subscription shows.
///
/// ```swift
/// assertDeallocated(Screen(center: center)) { screen in screen.start() }
/// ```
/// - Parameters:
///   - make: Makes the object; pass the initialiser call, so that nothing else holds it.
///   - timeout: How long to let other threads release their references.
///   - file: The file to attribute the failure to.
///   - line: The line to attribute the failure to.
///   - body: The work to do with the object.
public func assertDeallocated<Object: AnyObject>(
    _ make: @autoclosure () throws -> Object, timeout: Double = 1,
    file: StaticString = #filePath, line: UInt = #line, after body: (Object) throws -> Void
) rethrows {
    let outcome = try LeakCheck.deallocation(of: try make(), timeout: timeout, after: body)
    if let message = outcome.message {
        print(message)
        XCTFail(message, file: file, line: line)
    }
}
