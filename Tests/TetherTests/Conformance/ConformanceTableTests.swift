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
            // Sharing, buffering and debugging operators (ops-share).
            .driven("Publishers.Multicast", elements: 5, options: .tether(multicast: true)) {
                connected(wrapped(passthroughUnderTest()) { $0.multicast(subject: PassthroughSubject()) })
            },
            .driven("Publishers.Multicast", "closure", elements: 5, options: .tether(multicast: true)) {
                connected(wrapped(passthroughUnderTest()) { $0.multicast { PassthroughSubject() } })
            },
            .driven("Publishers.MakeConnectable", elements: 5, options: .tether(multicast: true)) {
                connected(wrapped(neverPassthroughUnderTest()) { $0.makeConnectable() })
            },
            .driven("Publishers.Autoconnect", elements: 5, options: .tether(multicast: true)) {
                wrapped(neverPassthroughUnderTest()) { $0.makeConnectable().autoconnect() }
            },
            .driven("Publishers.Share", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.share() }
            },
            .cold("Publishers.Buffer", "keepFull", elements: 5, options: .tetherIgnoringZeroDemand) {
                (0..<5).publisher.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
            },
            .cold("Publishers.Buffer", "byRequest", elements: 5, options: .tetherIgnoringZeroDemand) {
                (0..<5).publisher.buffer(size: 5, prefetch: .byRequest, whenFull: .dropNewest)
            },
            .driven("Publishers.Buffer", "subject", elements: 5, options: .tetherIgnoringZeroDemand) {
                wrapped(passthroughUnderTest()) { $0.buffer(size: 10, prefetch: .byRequest, whenFull: .dropOldest) }
            },
            .cold("Publishers.Print", elements: 5, options: .tether()) { (0..<5).publisher.print("row", to: DiscardingStream()) },
            .driven("Publishers.Print", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.print(to: DiscardingStream()) }
            },
            .cold("Publishers.Breakpoint", elements: 5, options: .tether()) { (0..<5).publisher.breakpoint() },
            .driven("Publishers.Breakpoint", "onError", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.breakpointOnError() }
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
