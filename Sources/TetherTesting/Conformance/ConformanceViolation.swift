import Synchronization
import TetherCore

/// One broken rule of the publisher/subscriber contract, found by ``PublisherConformance`` or
/// ``SubscriberConformance``.
///
/// Rules are numbered as in the Reactive Streams specification (`"1.1"`, `"3.13"`), read for
/// Combine's protocols: `onNext` is `receive(_:)`, `onSubscribe` is `receive(subscription:)`,
/// `Subscription.request(n)` is `request(.max(n))`. Rules that only Combine has are numbered
/// `"Combine"`.
public struct ConformanceViolation: Hashable, Sendable, CustomStringConvertible {
    /// The rule's number, such as `"1.1"` or `"3.13"`.
    public let rule: String

    /// The check that found the violation, such as `"demand is additive"`.
    public let check: String

    /// One sentence saying what happened.
    public let message: String

    /// Creates a violation.
    /// - Parameters:
    ///   - rule: The rule's number.
    ///   - check: The check that found it.
    ///   - message: What happened, as one sentence.
    public init(rule: String, check: String, message: String) {
        self.rule = rule
        self.check = check
        self.message = message
    }

    /// `§1.1 [demand is honoured] 3 values arrived for a demand of max(2).`
    public var description: String {
        "§\(rule) [\(check)] \(message)"
    }
}

/// Collects violations from every thread a check touches, one entry per distinct finding.
final class ViolationLog: @unchecked Sendable {
    private let entries = Guarded([ConformanceViolation]())

    let check: String

    init(check: String) {
        self.check = check
    }

    func record(_ rule: String, _ message: String) {
        let violation = ConformanceViolation(rule: rule, check: check, message: message)
        entries.withLock { entries in
            // A misbehaving publisher repeats itself per element; one report per rule is enough.
            if !entries.contains(where: { $0.rule == rule && $0.check == violation.check }) {
                entries.append(violation)
            }
        }
    }

    var violations: [ConformanceViolation] { entries.withLock { $0 } }
}

/// A value behind a mutex; bodies must not call out to code under test.
final class Guarded<Value>: @unchecked Sendable {
    private let locked: Locked<Value>

    init(_ value: Value) {
        locked = Locked(value)
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        locked.withLock(body)
    }
}
