import Testing
import Tether
import TetherExtras

/// Records an issue when `body` leaves Tether subscription objects alive, listing each one's
/// chain and, when its entry point recorded one, the line that made it (Swift Testing).
///
/// Only the objects made by the task running `body` count, so tests running in parallel do
/// not see each other's subscriptions; objects made on threads `body` hands work to are not
/// counted.
/// - Parameters:
///   - timeout: How long to let other threads release their references.
///   - sourceLocation: Where to attribute the issue.
///   - body: The work to check.
public func expectNoLiveSubscriptions(
    timeout: Double = 1, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async rethrows {
    let live = try await LeakCheck.liveSubscriptionsInScope(timeout: timeout, after: body)
    if !live.isEmpty {
        Issue.record(Comment(rawValue: SubscriptionLedger.leakReport(live)), sourceLocation: sourceLocation)
    }
}

/// Records an issue unless the object `make` returns is deallocated once `body` is done with
/// it; the issue lists the subscriptions made while it was alive (Swift Testing). See
/// ``assertDeallocated(_:timeout:file:line:after:)``.
/// - Parameters:
///   - make: Makes the object; pass the initialiser call, so that nothing else holds it.
///   - timeout: How long to let other threads release their references.
///   - sourceLocation: Where to attribute the issue.
///   - body: The work to do with the object.
public func expectDeallocated<Object: AnyObject>(
    _ make: @autoclosure () throws -> Object, timeout: Double = 1,
    sourceLocation: SourceLocation = #_sourceLocation, after body: (Object) throws -> Void
) rethrows {
    let outcome = try LeakCheck.deallocation(of: try make(), timeout: timeout, after: body)
    if let message = outcome.message {
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}

/// A trait that checks, after each test it applies to, that the test left no Tether
/// subscription alive: `@Suite(.noLiveSubscriptions)` or `@Test(.noLiveSubscriptions)`.
///
/// Each test runs in its own ledger scope (see ``expectNoLiveSubscriptions(timeout:sourceLocation:_:)``),
/// so the check holds when tests run in parallel.
public struct NoLiveSubscriptionsTrait: TestTrait, SuiteTrait, TestScoping {
    /// How long to let other threads release their references after each test.
    public let timeout: Double

    /// Applies to every test in a suite.
    public var isRecursive: Bool { true }

    /// Runs one test in a ledger scope and records an issue for what it left alive.
    /// - Parameters:
    ///   - test: The test or suite.
    ///   - testCase: The test case; `nil` for a suite, which is not checked as a whole.
    ///   - function: The test.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else {
            try await function()
            return
        }
        let live = try await LeakCheck.liveSubscriptionsInScope(timeout: timeout, after: function)
        if !live.isEmpty {
            Issue.record(Comment(rawValue: SubscriptionLedger.leakReport(live)))
        }
    }
}

extension Trait where Self == NoLiveSubscriptionsTrait {
    /// Checks that each test leaves no Tether subscription alive.
    public static var noLiveSubscriptions: Self { NoLiveSubscriptionsTrait(timeout: 1) }

    /// Checks that each test leaves no Tether subscription alive, waiting up to `timeout`
    /// seconds for other threads to let go.
    /// - Parameter timeout: How long to let other threads release their references.
    /// - Returns: The trait.
    public static func noLiveSubscriptions(timeout: Double) -> Self { NoLiveSubscriptionsTrait(timeout: timeout) }
}
