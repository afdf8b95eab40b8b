import Foundation
import Tether
import TetherTesting
import XCTest

/// One publisher type in the conformance table: how to verify it in process, and how to check
/// its `request(.none)` trap in a child process.
struct ConformanceRow {
    /// The public type's name as the completeness check spells it (`Publishers.Map`).
    let type: String
    /// What distinguishes this row from others of the same type, if anything.
    let variant: String
    let verify: () -> [ConformanceViolation]
    let verifyTrap: ((ChildProcessTrap) -> [ConformanceViolation])?

    var name: String { variant.isEmpty ? type : "\(type) (\(variant))" }

    /// A row for a cold publisher, producing `elements` elements then finishing.
    static func cold<P: Publisher>(
        _ type: String, _ variant: String = "", elements: Int, options: PublisherConformance.Options,
        make: @escaping () -> P, failing: (() -> P)? = nil
    ) -> ConformanceRow {
        ConformanceRow(
            type: type, variant: variant,
            verify: { PublisherConformance.verify(elements: elements, options: options, make: make, failing: failing) },
            verifyTrap: trapCheck(options) { .cold(make()) })
    }

    /// A row for a publisher under test, hot or cold.
    static func driven<P: Publisher>(
        _ type: String, _ variant: String = "", elements: Int, options: PublisherConformance.Options,
        make: @escaping () -> PublisherUnderTest<P>
    ) -> ConformanceRow {
        ConformanceRow(
            type: type, variant: variant,
            verify: { PublisherConformance.verify(elements: elements, options: options, make: make) },
            verifyTrap: trapCheck(options, make))
    }

    private static func trapCheck<P: Publisher>(
        _ options: PublisherConformance.Options, _ make: @escaping () -> PublisherUnderTest<P>
    ) -> ((ChildProcessTrap) -> [ConformanceViolation])? {
        guard case .traps = options.zeroDemand else { return nil }
        return { trap in PublisherConformance.verifyZeroDemandTraps(trap, make: make) }
    }
}

extension PublisherConformance.Options {
    /// What Tether's synchronous publishers promise: thread-safe requests and sends,
    /// nothing after `cancel()` returns, and a trap on `request(.none)`.
    static func tether(multicast: Bool = false) -> Self {
        Self(zeroDemand: .traps, multicast: multicast, concurrentSignals: true, cancellation: .immediate)
    }
}

/// A `PassthroughSubject` fed with its element indexes.
func passthroughUnderTest() -> PublisherUnderTest<PassthroughSubject<Int, TestError>> {
    let subject = PassthroughSubject<Int, TestError>()
    return .hot(
        subject, send: { subject.send($0) }, finish: { subject.send(completion: .finished) },
        fail: { subject.send(completion: .failure(TestError(id: 1))) })
}

/// A `CurrentValueSubject` holding element 0, fed with the rest.
func currentValueUnderTest() -> PublisherUnderTest<CurrentValueSubject<Int, TestError>> {
    let subject = CurrentValueSubject<Int, TestError>(0)
    return .hot(
        subject, replays: 1, send: { subject.send($0) }, finish: { subject.send(completion: .finished) },
        fail: { subject.send(completion: .failure(TestError(id: 1))) })
}

/// Wraps a publisher under test in an operator, keeping how it is driven.
func wrapped<P: Publisher, Q: Publisher>(
    _ source: PublisherUnderTest<P>, _ transform: (P) -> Q
) -> PublisherUnderTest<Q> {
    let publisher = transform(source.publisher)
    guard let send = source.send, let finish = source.finish else { return .cold(publisher) }
    return .hot(publisher, replays: source.replays, send: send, finish: finish, fail: source.fail)
}

final class ConformanceTableTests: TetherTestCase {
    /// Every public publisher of Tether, at least once. Add a row per new publisher: one line.
    static var rows: [ConformanceRow] {
        [
            .cold("Publishers.Sequence", elements: 5, options: .tether()) { (0..<5).publisher },
            .cold("Publishers.Sequence", "array", elements: 3, options: .tether()) { [7, 8, 9].publisher },
            .driven("PassthroughSubject", elements: 5, options: .tether(multicast: true), make: passthroughUnderTest),
            .driven("CurrentValueSubject", elements: 5, options: .tether(multicast: true), make: currentValueUnderTest),
            .cold("AnyPublisher", elements: 5, options: .tether()) { (0..<5).publisher.eraseToAnyPublisher() },
            .driven("AnyPublisher", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.eraseToAnyPublisher() }
            },
            .cold("Publishers.Map", elements: 5, options: .tether()) { (0..<5).publisher.map { $0 * 10 } },
            .driven("Publishers.Map", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.map { $0 + 1 } }
            },
            .cold("Publishers.Filter", elements: 5, options: .tether()) { (0..<10).publisher.filter { $0 % 2 == 0 } },
            .driven("Publishers.Filter", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(currentValueUnderTest()) { $0.filter { _ in true } }
            },
            // ops-reduce: scan, errors, duplicates, replacement, collecting and reducing operators.
            .cold("Publishers.Scan", elements: 5, options: .tether()) { (0..<5).publisher.scan(0, +) },
            .cold("Publishers.TryScan", elements: 5, options: .tether()) { (0..<5).publisher.tryScan(0, +) },
            .cold("Publishers.SetFailureType", elements: 5, options: .tether()) {
                (0..<5).publisher.setFailureType(to: TestError.self)
            },
            .cold("Publishers.MapError", elements: 5, options: .tether()) {
                (0..<5).publisher.setFailureType(to: TestError.self).mapError { TestError(id: $0.id + 1) }
            },
            .cold("Publishers.RemoveDuplicates", elements: 5, options: .tether()) {
                [0, 0, 1, 2, 2, 3, 4].publisher.removeDuplicates()
            },
            .cold("Publishers.TryRemoveDuplicates", elements: 5, options: .tether()) {
                [0, 1, 1, 2, 3, 3, 4].publisher.tryRemoveDuplicates(by: ==)
            },
            .cold("Publishers.CollectByCount", elements: 3, options: .tether()) { (0..<8).publisher.collect(3) },
            .cold("Publishers.ReplaceEmpty", elements: 5, options: .tether()) { (0..<5).publisher.replaceEmpty(with: 9) },
            .cold("Publishers.ReplaceEmpty", "empty", elements: 1, options: .tether()) {
                Empty<Int, Never>().replaceEmpty(with: 9)
            },
            .driven("Publishers.ReplaceError", elements: 5, options: .tether(multicast: true)) {
                let subject = PassthroughSubject<Int, TestError>()
                return .hot(
                    subject.replaceError(with: -1), send: { subject.send($0) },
                    finish: { subject.send(completion: .finished) })
            },
            .driven("Publishers.IgnoreOutput", elements: 0, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.ignoreOutput() }
            },
            .cold("Publishers.Collect", elements: 1, options: .tether()) { (0..<5).publisher.collect() },
            .cold("Publishers.Reduce", elements: 1, options: .tether()) { (0..<5).publisher.reduce(0, +) },
            .cold("Publishers.TryReduce", elements: 1, options: .tether()) { (0..<5).publisher.tryReduce(0, +) },
            .cold("Publishers.Count", elements: 1, options: .tether()) { (0..<5).publisher.count() },
            .cold("Publishers.Comparison", elements: 1, options: .tether()) { (0..<5).publisher.max() },
            .cold("Publishers.TryComparison", elements: 1, options: .tether()) { (0..<5).publisher.tryMin(by: <) },
            .cold("Publishers.AllSatisfy", elements: 1, options: .tether()) { (0..<5).publisher.allSatisfy { $0 < 9 } },
            .cold("Publishers.TryAllSatisfy", elements: 1, options: .tether()) {
                (0..<5).publisher.tryAllSatisfy { $0 < 9 }
            },
            .cold("Publishers.Contains", elements: 1, options: .tether()) { (0..<5).publisher.contains(3) },
            .cold("Publishers.ContainsWhere", elements: 1, options: .tether()) {
                (0..<5).publisher.contains { $0 > 9 }
            },
            .cold("Publishers.TryContainsWhere", elements: 1, options: .tether()) {
                (0..<5).publisher.tryContains { $0 == 2 }
            },
            .driven("Publishers.Reduce", "subject", elements: 1, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.reduce(0, +) }
            },
        ]
    }

    /// Publisher types deliberately left out of the table, with the reason.
    static let exempt: [String: String] = [:]

    func testEveryPublisherKeepsTheContract() {
        for row in Self.rows {
            for violation in row.verify() {
                XCTFail("\(row.name): \(violation)")
            }
        }
    }

    func testRequestingNoneTrapsWhereDeclared() {
        let test = "TetherTests.ConformanceTableTests/testRequestingNoneTrapsWhereDeclared"
        var checked = 0
        for row in Self.rows {
            guard let verifyTrap = row.verifyTrap else { continue }
            for violation in verifyTrap(ChildProcessTrap(test: test, id: row.name)) {
                XCTFail("\(row.name): \(violation)")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0)
    }

    func testEveryPublicPublisherTypeHasARow() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let declared = try PublicPublisherScan.publisherTypes(
            under: [sources.appendingPathComponent("TetherCore"), sources.appendingPathComponent("Tether")])
        XCTAssertTrue(declared.contains("Publishers.Sequence"), "the scan found \(declared.sorted())")
        let covered = Set(Self.rows.map(\.type)).union(Self.exempt.keys)
        let missing = declared.subtracting(covered).sorted()
        XCTAssertEqual(missing, [], "public publishers without a row in ConformanceTableTests.rows: \(missing)")
        let unknown = covered.subtracting(declared).sorted()
        XCTAssertEqual(unknown, [], "rows naming types the scan did not find: \(unknown)")
    }
}
