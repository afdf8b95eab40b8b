import Foundation
import Tether
import TetherExtras
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
    /// The type the row actually verifies, as `String(reflecting:)` spells it.
    let madeType: String

    var name: String { variant.isEmpty ? type : "\(type) (\(variant))" }

    /// A row for a cold publisher, producing `elements` elements then finishing.
    static func cold<P: Publisher>(
        _ type: String, _ variant: String = "", elements: Int, options: PublisherConformance.Options,
        make: @escaping () -> P, failing: (() -> P)? = nil
    ) -> ConformanceRow {
        ConformanceRow(
            type: type, variant: variant,
            verify: { PublisherConformance.verify(elements: elements, options: options, make: make, failing: failing) },
            verifyTrap: trapCheck(options) { .cold(make()) }, madeType: String(reflecting: P.self))
    }

    /// A row for a publisher under test, hot or cold.
    static func driven<P: Publisher>(
        _ type: String, _ variant: String = "", elements: Int, options: PublisherConformance.Options,
        make: @escaping () -> PublisherUnderTest<P>
    ) -> ConformanceRow {
        ConformanceRow(
            type: type, variant: variant,
            verify: { PublisherConformance.verify(elements: elements, options: options, make: make) },
            verifyTrap: trapCheck(options, make), madeType: String(reflecting: P.self))
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
    /// - Parameters:
    ///   - keepsSubscriber: The subscription holds its subscriber for its whole life, as
    ///     Combine's operators that are their own downstream's subscription do.
    ///   - demand: How the publisher counts demand.
    static func tether(
        multicast: Bool = false, keepsSubscriber: Bool = false, demand: DemandAccounting = .counted
    ) -> Self {
        Self(
            zeroDemand: .traps, demand: demand, multicast: multicast, concurrentSignals: true,
            cancellation: .immediate,
            subscriberRelease: keepsSubscriber ? .withTheSubscription : .onCancelAndCompletion)
    }
}

extension PublisherConformance.Options {
    /// These options for a row whose `request(.none)` reaches a `Record` or a sequence publisher
    /// (an operator that passes requests up as they come), which ignore it as Combine's do.
    var overRecorded: Self {
        var options = self
        options.zeroDemand = .ignored
        return options
    }
}

extension PublisherConformance.Options {
    /// These options for a row whose subscription holds its subscriber for its whole life, as
    /// `tether(keepsSubscriber: true)` says for Tether's synchronous rows.
    var keepingSubscriber: Self {
        var options = self
        options.subscriberRelease = .withTheSubscription
        return options
    }
}

extension PublisherConformance.Options {
    /// Tether's options for merges, which ignore `request(.none)` and hold their subscriber for
    /// the subscription's whole life, as Combine's merges do.
    static func merge(multicast: Bool = false) -> Self {
        Self(
            zeroDemand: .ignored, multicast: multicast, concurrentSignals: true, cancellation: .immediate,
            subscriberRelease: .withTheSubscription)
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
/// `Just(0)` failing as the table's subjects do.
func justZero() -> Publishers.SetFailureType<Just<Int>, TestError> {
    Just(0).setFailureType(to: TestError.self)
}

func wrapped<P: Publisher, Q: Publisher>(
    _ source: PublisherUnderTest<P>, _ transform: (P) -> Q
) -> PublisherUnderTest<Q> {
    let publisher = transform(source.publisher)
    guard let send = source.send, let finish = source.finish else { return .cold(publisher) }
    return .hot(publisher, replays: source.replays, send: send, finish: finish, fail: source.fail)
}

// MARK: Core publishers and operators

extension PublisherConformance.Options {
    /// What a publisher that completes on subscription promises: it hands over the
    /// `Subscriptions.empty` subscription, which ignores every request (`.none` included) and
    /// every cancel, from any thread.
    static var completesAtOnce: Self {
        Self(zeroDemand: .ignored, concurrentSignals: true, cancellation: .immediate)
    }
}

/// A `Record` of the element indexes `0..<count`, then `.finished`, or a failure when
/// `thenFails`.
func recorded(_ count: Int, thenFails: Bool = false) -> Record<Int, TestError> {
    Record(output: Array(0..<count), completion: thenFails ? .failure(TestError(id: 1)) : .finished)
}

/// Half of an even number; `nil` for an odd one, so that half the upstream is skipped.
func halvingEvens(_ value: Int) -> Int? {
    value.isMultiple(of: 2) ? value / 2 : nil
}

/// Keeps even numbers, so that half the upstream is skipped.
func keepingEvens(_ value: Int) -> Bool {
    value.isMultiple(of: 2)
}

/// Passes a value through, throwing on 2: upstream element 2 ends the stream.
func throwingOnTwo(_ value: Int) throws -> Int {
    if value == 2 { throw TestError(id: 2) }
    return value
}

/// Passes a value through, throwing on a negative one: the hot rows' way to fail.
func throwingOnNegative(_ value: Int) throws -> Int {
    if value < 0 { throw TestError(id: 3) }
    return value
}

/// `upstream` with every `handleEvents` hook set, so that each signal runs through one.
func observed<P: Publisher>(_ upstream: P) -> Publishers.HandleEvents<P> {
    upstream.handleEvents(
        receiveSubscription: { _ in }, receiveOutput: { _ in }, receiveCompletion: { _ in },
        receiveCancel: {}, receiveRequest: { _ in })
}

/// A throwing operator over a `PassthroughSubject` fed with its element indexes; it fails by
/// sending -1, which the operator's closure throws on.
func throwingUnderTest<Q: Publisher>(
    _ transform: (PassthroughSubject<Int, TestError>) -> Q
) -> PublisherUnderTest<Q> {
    let subject = PassthroughSubject<Int, TestError>()
    return .hot(
        transform(subject), send: { subject.send($0) }, finish: { subject.send(completion: .finished) },
        fail: { subject.send(-1) })
}

/// A `Future` whose promise is kept to be fulfilled with element 0 after subscribers attach; the
/// success is also its completion. It has no hot failure: the checker fails a hot publisher only
/// after sending its elements, and a fulfilled future ignores later promises (the cold row
/// checks the failure).
func pendingFutureUnderTest() -> PublisherUnderTest<Future<Int, TestError>> {
    var kept: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { kept = $0 }
    guard let promise = kept else { preconditionFailure("Future runs its closure in init") }
    return .hot(future, send: { promise(.success($0)) }, finish: {})
}

/// A lifetime that never ends, for the `prefix(during:)` row.
let conformanceRowsToken = Lifetime.Token()

final class ConformanceTableTests: TetherTestCase {
    /// Every public publisher of Tether, at least once. Add a row per new publisher: one line.
    static var rows: [ConformanceRow] {
        rows1 + rows2 + rows3 + rows4 + rows5 + rows6 + rows7 + rows8 + rows9 + timeRows + lifetimeRows
            + concurrencyRows + foundationRows
            + extrasSharingRows + terminationRows + composedRows + extrasOperatorRows
    }

    // Split into groups so that each array literal type-checks quickly.
    private static var rows1: [ConformanceRow] {
        [
            .cold("Publishers.Sequence", elements: 5, options: .tether().overRecorded) { (0..<5).publisher },
            .cold("Publishers.Sequence", "array", elements: 3, options: .tether().overRecorded) {
                [7, 8, 9].publisher
            },
            .driven("PassthroughSubject", elements: 5, options: .tether(multicast: true), make: passthroughUnderTest),
            .driven("CurrentValueSubject", elements: 5, options: .tether(multicast: true), make: currentValueUnderTest),
            .cold("AnyPublisher", elements: 5, options: .tether().overRecorded) {
                (0..<5).publisher.eraseToAnyPublisher()
            },
            .driven("AnyPublisher", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.eraseToAnyPublisher() }
            },
            .cold("Publishers.Map", elements: 5, options: .tether().overRecorded) { recorded(5).map { $0 * 10 } },
            .driven("Publishers.Map", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.map { $0 + 1 } }
            },
            .cold("Publishers.Filter", elements: 5, options: .tether().overRecorded) {
                recorded(10).filter { $0 % 2 == 0 }
            },
            .driven("Publishers.Filter", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(currentValueUnderTest()) { $0.filter { _ in true } }
            },
            // core publishers and operators
            .cold("Just", elements: 1, options: .tether()) { Just(7) },
            .cold("Optional.Publisher", elements: 1, options: .tether()) { Optional(7).publisher },
        ]
    }

    private static var rows2: [ConformanceRow] {
        [
            .cold("Optional.Publisher", "nil", elements: 0, options: .completesAtOnce) { Int?.none.publisher },
            .cold(
                "Result.Publisher", elements: 1, options: .tether(),
                make: { Result<Int, TestError>.success(7).publisher },
                failing: { Result<Int, TestError>.failure(TestError(id: 1)).publisher }),
            .cold("Empty", elements: 0, options: .completesAtOnce) { Empty<Int, TestError>() },
            .cold(
                "Record", elements: 5, options: .tether().overRecorded,
                make: { recorded(5) }, failing: { recorded(2, thenFails: true) }),
            .cold("Record", "no output", elements: 0, options: .completesAtOnce) { recorded(0) },
            .cold(
                "Future", "fulfilled before subscribing", elements: 1, options: .tether(),
                make: { Future<Int, TestError> { $0(.success(7)) } },
                failing: { Future<Int, TestError> { $0(.failure(TestError(id: 1))) } }),
            .driven(
                "Future", "fulfilled after subscribing", elements: 1,
                options: .tether(multicast: true)
            ) {
                pendingFutureUnderTest()
            },
            .cold(
                "Deferred", elements: 5, options: .tether().overRecorded,
                make: { Deferred { recorded(5) } }, failing: { Deferred { recorded(2, thenFails: true) } }),
            .driven("Deferred", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { subject in Deferred { subject } }
            },
            .cold(
                "Publishers.CompactMap", elements: 5, options: .tether().overRecorded,
                make: { recorded(10).compactMap(halvingEvens) },
                failing: { recorded(2, thenFails: true).compactMap(halvingEvens) }),
            .driven("Publishers.CompactMap", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.compactMap { Optional($0) } }
            },
            .cold(
                "Publishers.HandleEvents", elements: 5, options: .tether(keepsSubscriber: true).overRecorded,
                make: { observed(recorded(5)) }, failing: { observed(recorded(2, thenFails: true)) }),
        ]
    }

    private static var rows3: [ConformanceRow] {
        [
            .driven(
                "Publishers.HandleEvents", "subject", elements: 5,
                options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(currentValueUnderTest()) { observed($0) }
            },
            .cold(
                "Publishers.MapKeyPath", elements: 5, options: .tether().overRecorded,
                make: { recorded(5).map(\.magnitude) as Publishers.MapKeyPath<Record<Int, TestError>, UInt> },
                failing: {
                    recorded(2, thenFails: true).map(\.magnitude) as Publishers.MapKeyPath<Record<Int, TestError>, UInt>
                }),
            .driven("Publishers.MapKeyPath", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) {
                    $0.map(\.magnitude) as Publishers.MapKeyPath<PassthroughSubject<Int, TestError>, UInt>
                }
            },
            .cold(
                "Publishers.MapKeyPath2", elements: 5, options: .tether().overRecorded,
                make: { recorded(5).map(\.magnitude, \.description) },
                failing: { recorded(2, thenFails: true).map(\.magnitude, \.description) }),
            .driven("Publishers.MapKeyPath2", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(currentValueUnderTest()) { $0.map(\.magnitude, \.description) }
            },
            .cold(
                "Publishers.MapKeyPath3", elements: 5, options: .tether().overRecorded,
                make: { recorded(5).map(\.magnitude, \.description, \.bitWidth) },
                failing: { recorded(2, thenFails: true).map(\.magnitude, \.description, \.bitWidth) }),
            .driven("Publishers.MapKeyPath3", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.map(\.magnitude, \.description, \.bitWidth) }
            },
            .cold(
                "Publishers.TryMap", "throwing", elements: 5, options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(5).tryMap(throwingOnNegative) }, failing: { recorded(5).tryMap(throwingOnTwo) }),
            .cold(
                "Publishers.TryMap", "upstream failure", elements: 5,
                options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(5).tryMap(throwingOnNegative) },
                failing: { recorded(2, thenFails: true).tryMap(throwingOnNegative) }),
            .driven(
                "Publishers.TryMap", "subject", elements: 5, options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                throwingUnderTest { $0.tryMap(throwingOnNegative) }
            },
            .cold(
                "Publishers.TryFilter", elements: 5, options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(10).tryFilter(keepingEvens) },
                failing: { recorded(10).tryFilter { try keepingEvens($0) && throwingOnTwo($0) >= 0 } }),
            .driven(
                "Publishers.TryFilter", "subject", elements: 5, options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                throwingUnderTest { $0.tryFilter { try throwingOnNegative($0) >= 0 } }
            },
        ]
    }

    private static var rows4: [ConformanceRow] {
        [
            .cold(
                "Publishers.TryCompactMap", elements: 5, options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(10).tryCompactMap(halvingEvens) },
                failing: { recorded(10).tryCompactMap { try halvingEvens(throwingOnTwo($0)) } }),
            .driven(
                "Publishers.TryCompactMap", "subject", elements: 5,
                options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                throwingUnderTest { $0.tryCompactMap { Optional(try throwingOnNegative($0)) } }
            },
            // Sequence operators (first, last, output, prefix, drop, concatenate).
            .cold("Publishers.First", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().first()
            },
            .cold("Publishers.FirstWhere", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().first { $0 > 2 }
            },
            .cold("Publishers.TryFirstWhere", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.tryFirst { $0 > 2 }
            },
            .cold("Publishers.Last", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().last()
            },
            .cold("Publishers.LastWhere", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().last { $0 < 3 }
            },
            .cold("Publishers.TryLastWhere", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.tryLast { $0 < 3 }
            },
            .cold("Publishers.Output", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<10).publisher.eraseToAnyPublisher().output(in: 2..<7)
            },
            .cold("Publishers.Output", "prefix", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<10).publisher.eraseToAnyPublisher().prefix(5)
            },
            .driven(
                "Publishers.Output", "subject", elements: 5, options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { $0.output(in: 0...) }
            },
            .cold("Publishers.PrefixWhile", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<10).publisher.eraseToAnyPublisher().prefix { $0 < 5 }
            },
        ]
    }

    private static var rows5: [ConformanceRow] {
        [
            .cold("Publishers.TryPrefixWhile", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<10).publisher.tryPrefix { $0 < 5 }
            },
            .cold("Publishers.Drop", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<7).publisher.eraseToAnyPublisher().dropFirst(2)
            },
            .cold("Publishers.DropWhile", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<8).publisher.eraseToAnyPublisher().drop { $0 < 3 }
            },
            .cold("Publishers.TryDropWhile", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<8).publisher.tryDrop { $0 < 3 }
            },
            .cold("Publishers.PrefixUntilOutput", elements: 5, options: .tether(keepsSubscriber: true).overRecorded) {
                (0..<5).publisher.prefix(untilOutputFrom: Empty<Int, Never>(completeImmediately: false))
            },
            .cold("Publishers.DropUntilOutput", elements: 5, options: .tetherIgnoringZeroDemand) {
                (0..<5).publisher.drop(untilOutputFrom: Just(0))
            },
            .cold("Publishers.Concatenate", elements: 5, options: .tether(keepsSubscriber: true).overRecorded) {
                (0..<3).publisher.append(3, 4)
            },
            .driven(
                "Publishers.Concatenate", "subject", elements: 5,
                options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { $0.prepend(Empty()) }
            },
            // End of sequence operators.
            // Combining operators: Merge…Merge8, MergeMany, CombineLatest…4, Zip…4.
            .cold("Publishers.Merge", elements: 5, options: .merge()) {
                (0..<3).publisher.eraseToAnyPublisher().merge(with: (3..<5).publisher)
            },
            .driven("Publishers.Merge", "subject", elements: 5, options: .merge(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.merge(with: Empty<Int, TestError>()) }
            },
            .cold("Publishers.Merge3", elements: 5, options: .merge()) {
                [0, 1].publisher.merge(with: [2].publisher, [3, 4].publisher)
            },
            .cold("Publishers.Merge4", elements: 5, options: .merge()) {
                [0, 1].publisher.merge(with: [2].publisher, [3].publisher, [4].publisher)
            },
        ]
    }

    private static var rows6: [ConformanceRow] {
        [
            .cold("Publishers.Merge5", elements: 5, options: .merge()) {
                [0].publisher.merge(with: [1].publisher, [2].publisher, [3].publisher, [4].publisher)
            },
            .cold("Publishers.Merge6", elements: 5, options: .merge()) {
                [0].publisher.merge(with: [1].publisher, [2].publisher, [3].publisher, [4].publisher, [Int]().publisher)
            },
            .cold("Publishers.Merge7", elements: 7, options: .merge()) {
                [0].publisher.merge(
                    with: [1].publisher, [2].publisher, [3].publisher, [4].publisher, [5].publisher, [6].publisher)
            },
            .cold("Publishers.Merge8", elements: 5, options: .merge()) {
                Publishers.Merge8(
                    [0].publisher, [1].publisher, [2].publisher, [3].publisher, [4].publisher, [Int]().publisher,
                    [Int]().publisher, [Int]().publisher)
            },
            .cold("Publishers.MergeMany", elements: 5, options: .merge()) {
                Publishers.MergeMany([[0, 1].publisher, [2, 3].publisher, [4].publisher])
            },
            .driven("Publishers.MergeMany", "subject", elements: 5, options: .merge(multicast: true)) {
                wrapped(passthroughUnderTest()) { Publishers.MergeMany($0) }
            },
            // Driven by a subject beside `Just`s, which answer at once: with several demand-driven
            // upstreams, how many combinations come out depends on which upstream is asked first,
            // so a cold row's count would be timing (as in Combine), not a contract.
            .driven("Publishers.CombineLatest", "subject", elements: 5, options: .tether(keepsSubscriber: true)) {
                wrapped(passthroughUnderTest()) { $0.combineLatest(justZero()) }
            },
            .driven("Publishers.CombineLatest3", "subject", elements: 5, options: .tether(keepsSubscriber: true)) {
                wrapped(passthroughUnderTest()) { $0.combineLatest(justZero(), justZero()) }
            },
            .driven("Publishers.CombineLatest4", "subject", elements: 5, options: .tether(keepsSubscriber: true)) {
                wrapped(passthroughUnderTest()) { $0.combineLatest(justZero(), justZero(), justZero()) }
            },
            .cold("Publishers.Zip", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.zip((10..<20).publisher)
            },
            .cold("Publishers.Zip3", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.zip((0..<5).publisher, (0..<9).publisher)
            },
            .cold("Publishers.Zip4", elements: 5, options: .tether(keepsSubscriber: true)) {
                (0..<6).publisher.zip((0..<5).publisher, (0..<7).publisher, (0..<8).publisher)
            },
        ]
    }

    private static var rows7: [ConformanceRow] {
        [
            // Flattening and error handling: FlatMap, SwitchToLatest, Catch,
            // TryCatch, Retry, AssertNoFailure, SetFailureType.
            .cold("Publishers.FlatMap", elements: 6, options: .tether()) {
                (0..<3).publisher.flatMap(maxPublishers: .max(1)) { [$0 * 2, $0 * 2 + 1].publisher }
            },
            .cold("Publishers.FlatMap", "unlimited", elements: 6, options: .tether()) {
                (0..<3).publisher.flatMap { [$0, $0 + 10].publisher }
            },
            .driven("Publishers.FlatMap", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.flatMap { Just($0) } }
            },
            // One inner: with several from a synchronous upstream, how many values survive the
            // switch depends on when the first request arrives, as in Combine.
            .cold("Publishers.SwitchToLatest", elements: 5, options: .tether(keepsSubscriber: true)) {
                Just((0..<5).publisher).switchToLatest()
            },
            .cold("Publishers.Catch", elements: 5, options: .tether(keepsSubscriber: true)) {
                Record<Int, TestError>(output: [0, 1], completion: .failure(TestError())).catch { _ in (2..<5).publisher
                }
            },
            .cold("Publishers.TryCatch", elements: 5, options: .tether(keepsSubscriber: true)) {
                Record<Int, TestError>(output: [0, 1], completion: .failure(TestError())).tryCatch { _ in
                    (2..<5).publisher
                }
            },
            .cold("Publishers.Retry", elements: 5, options: .tether()) {
                let attempts = AtomicCounter()
                return Deferred {
                    attempts.increment() == 1
                        ? Record<Int, TestError>(output: [0, 1], completion: .failure(TestError()))
                        : Record<Int, TestError>(output: [2, 3, 4], completion: .finished)
                }.retry(1)
            },
            .cold("Publishers.AssertNoFailure", elements: 5, options: .tether().overRecorded) {
                (0..<5).publisher.eraseToAnyPublisher().setFailureType(to: TestError.self).assertNoFailure()
            },
            .cold("Publishers.SetFailureType", elements: 5, options: .tether().overRecorded) {
                (0..<5).publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
            },
            // Sharing, buffering and debugging operators.
            .driven("Publishers.Multicast", elements: 5, options: .multicastIgnoringZeroDemand) {
                connected(wrapped(passthroughUnderTest()) { $0.multicast(subject: PassthroughSubject()) })
            },
            .driven("Publishers.Multicast", "closure", elements: 5, options: .multicastIgnoringZeroDemand) {
                connected(wrapped(passthroughUnderTest()) { $0.multicast { PassthroughSubject() } })
            },
            .driven("Publishers.MakeConnectable", elements: 5, options: .multicastIgnoringZeroDemand) {
                connected(wrapped(neverPassthroughUnderTest()) { $0.makeConnectable() })
            },
        ]
    }

    private static var rows8: [ConformanceRow] {
        [
            .driven("Publishers.Autoconnect", elements: 5, options: .multicastIgnoringZeroDemand) {
                wrapped(neverPassthroughUnderTest()) { $0.makeConnectable().autoconnect() }
            },
            .driven("Publishers.Share", elements: 5, options: .multicastIgnoringZeroDemand) {
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
            .cold("Publishers.Print", elements: 5, options: .tether(keepsSubscriber: true).overRecorded) {
                (0..<5).publisher.print("row", to: DiscardingStream())
            },
            .driven(
                "Publishers.Print", "subject", elements: 5, options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { $0.print(to: DiscardingStream()) }
            },
            .cold("Publishers.Breakpoint", elements: 5, options: .tether().overRecorded) {
                (0..<5).publisher.breakpoint()
            },
            // A completion closure that never stops: the driven rows fail their stream, and
            // breakpointOnError would stop the test process there, as it stops any process.
            .driven("Publishers.Breakpoint", "onCompletion", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.breakpoint(receiveCompletion: { _ in false }) }
            },
        ]
    }

    private static var rows9: [ConformanceRow] {
        [
            // Scan, errors, duplicates, replacement, collecting and reducing operators.
            .cold("Publishers.Scan", elements: 5, options: .tether().overRecorded) {
                (0..<5).publisher.eraseToAnyPublisher().scan(0, +)
            },
            .cold("Publishers.TryScan", elements: 5, options: .tether(keepsSubscriber: true).overRecorded) {
                (0..<5).publisher.tryScan(0, +)
            },
            .cold("Publishers.SetFailureType", elements: 5, options: .tether().overRecorded) {
                (0..<5).publisher.eraseToAnyPublisher().setFailureType(to: TestError.self)
            },
            .cold("Publishers.MapError", elements: 5, options: .tether().overRecorded) {
                (0..<5).publisher.eraseToAnyPublisher().setFailureType(to: TestError.self).mapError {
                    TestError(id: $0.id + 1)
                }
            },
            .cold("Publishers.RemoveDuplicates", elements: 5, options: .tether(keepsSubscriber: true)) {
                [0, 0, 1, 2, 2, 3, 4].publisher.eraseToAnyPublisher().removeDuplicates()
            },
            .cold("Publishers.TryRemoveDuplicates", elements: 5, options: .tether(keepsSubscriber: true)) {
                [0, 1, 1, 2, 3, 3, 4].publisher.tryRemoveDuplicates(by: ==)
            },
            .cold("Publishers.CollectByCount", elements: 3, options: .tether(keepsSubscriber: true)) {
                (0..<8).publisher.collect(3)
            },
            // Asks its upstream for everything, as Combine's does, so values ignore the demand.
            .cold("Publishers.ReplaceEmpty", elements: 5, options: .tether(keepsSubscriber: true, demand: .uncounted)) {
                (0..<5).publisher.replaceEmpty(with: 9)
            },
            .cold("Publishers.ReplaceEmpty", "empty", elements: 1, options: .tether(keepsSubscriber: true)) {
                Empty<Int, Never>().replaceEmpty(with: 9)
            },
            .driven("Publishers.ReplaceError", elements: 5, options: .tether(multicast: true, keepsSubscriber: true)) {
                let subject = PassthroughSubject<Int, TestError>()
                return .hot(
                    subject.replaceError(with: -1), send: { subject.send($0) },
                    finish: { subject.send(completion: .finished) })
            },
            .driven("Publishers.IgnoreOutput", elements: 0, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { $0.ignoreOutput() }
            },
            .cold("Publishers.Collect", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().collect()
            },
            .cold("Publishers.Reduce", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().reduce(0, +)
            },
            .cold("Publishers.TryReduce", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().tryReduce(0, +)
            },
            .cold("Publishers.Count", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().count()
            },
            .cold("Publishers.Comparison", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().max()
            },
            .cold("Publishers.TryComparison", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.tryMin(by: <)
            },
            .cold("Publishers.AllSatisfy", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().allSatisfy { $0 < 9 }
            },
            .cold("Publishers.TryAllSatisfy", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().tryAllSatisfy { $0 < 9 }
            },
            .cold("Publishers.Contains", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().contains(3)
            },
            .cold("Publishers.ContainsWhere", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().contains { $0 > 9 }
            },
            .cold("Publishers.TryContainsWhere", elements: 1, options: .tether(keepsSubscriber: true)) {
                (0..<5).publisher.eraseToAnyPublisher().tryContains { $0 == 2 }
            },
            .driven(
                "Publishers.Reduce", "subject", elements: 1, options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { $0.reduce(0, +) }
            },
        ]
    }

    // Time operators (sched), driven on ImmediateScheduler: every scheduled action runs at once.
    private static var timeRows: [ConformanceRow] {
        let immediate = ImmediateScheduler.shared
        return [
            // ReceiveOn, Delay, Debounce and Timeout hold their subscriber for the subscription's
            // life, as Combine's do: OpenCombine's suite, run against Combine, records the
            // subscriber outliving a cancel while scheduled work is pending, and an upstream's
            // failure (their lifecycle and strong-capture tests).
            .cold("Publishers.ReceiveOn", elements: 5, options: .tether(keepsSubscriber: true).overRecorded) {
                (0..<5).publisher.receive(on: immediate)
            },
            .driven(
                "Publishers.ReceiveOn", "subject", elements: 5, options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { $0.receive(on: immediate) }
            },
            // Over a subject: a sequence delivers inside the request that reaches it, and a request
            // from inside that delivery would reach the upstream's request again on the same
            // thread, which subscribe(on:) traps on as Combine's does.
            .driven(
                "Publishers.SubscribeOn", "subject", elements: 5,
                options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { $0.subscribe(on: immediate) }
            },
            .cold(
                "Publishers.Delay", elements: 5, options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(5).delay(for: 1, scheduler: immediate) },
                failing: { recorded(2, thenFails: true).delay(for: 1, scheduler: immediate) }),
            .cold("Publishers.MeasureInterval", elements: 5, options: .tether(keepsSubscriber: true).overRecorded) {
                (0..<5).publisher.measureInterval(using: immediate)
            },
            // Debounce and throttle ignore request(.none), as Combine's do.
            .driven("Publishers.Debounce", elements: 5, options: .ignoringZeroDemand.keepingSubscriber) {
                wrapped(passthroughUnderTest()) { $0.debounce(for: 1, scheduler: immediate) }
            },
            .driven("Publishers.Throttle", elements: 5, options: .ignoringZeroDemand) {
                wrapped(passthroughUnderTest()) { $0.throttle(for: 1, scheduler: immediate, latest: true) }
            },
            .cold("Publishers.CollectByTime", elements: 3, options: .tether()) {
                (0..<6).publisher.collect(.byTimeOrCount(immediate, 1, 2))
            },
            // On a queue, with a timeout no check waits for: values arrive on the queue, as
            // Combine's timeout delivers them, and the armed timer must not keep anything alive.
            .cold("Publishers.Timeout", elements: 5, options: .tetherAsync.overRecorded.keepingSubscriber) {
                (0..<5).publisher.timeout(.seconds(60), scheduler: DispatchQueue(label: "conformance.timeout"))
            },
        ]
    }

    // lifetime: AnyPublisher.create, Lifetime.EndedPublisher and prefix(during:).
    private static var lifetimeRows: [ConformanceRow] {
        [
            .cold("AnyPublisher", "create", elements: 5, options: .tether()) {
                AnyPublisher<Int, TestError>.create { subscriber in
                    for value in 0..<5 { subscriber.send(value) }
                    subscriber.send(completion: .finished)
                    return AnyCancellable {}
                }
            },
            .driven("AnyPublisher", "create over a subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) { subject in
                    AnyPublisher<Int, TestError>.create { subscriber in
                        subject.sink(receiveCompletion: subscriber.send(completion:), receiveValue: subscriber.send)
                    }
                }
            },
            .cold("Lifetime.EndedPublisher", elements: 1, options: .tether()) { Lifetime.ended.endedPublisher },
            .driven(
                "Publishers.PrefixUntilOutput", "during a lifetime", elements: 5,
                options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                wrapped(passthroughUnderTest()) { $0.prefix(during: Lifetime(conformanceRowsToken)) }
            },
        ]
    }

    private static var concurrencyRows: [ConformanceRow] {
        [
            // async: publishers that deliver from tasks, so signals stop only eventually after cancel.
            .cold("Publishers.AsyncSequencePublisher", elements: 5, options: .tetherAsync) {
                CountingAsyncSequence(limit: 5, pulls: AtomicCounter()).publisher
            },
            .cold("Publishers.AsyncSequencePublisher", "stream", elements: 5, options: .tetherAsync) {
                AsyncStream<Int> { continuation in
                    for value in 0..<5 { continuation.yield(value) }
                    continuation.finish()
                }.publisher
            },
            .cold("Publishers.AsyncMap", elements: 5, options: .tetherAsync) {
                (0..<5).publisher.asyncMap(maxConcurrent: 2) { $0 * 2 }
            },
            .driven("Publishers.AsyncMap", "subject", elements: 5, options: .tetherAsync) {
                // A subject drops what it is sent without demand, and asyncMap asks for at most
                // maxConcurrent: the buffer in front keeps the kit's burst of sends.
                wrapped(passthroughUnderTest()) {
                    $0.buffer(size: 10, prefetch: .keepFull, whenFull: .dropNewest).asyncMap(maxConcurrent: 3) { $0 }
                }
            },
            .cold(
                "Publishers.TryAsyncMap", elements: 5, options: .tetherAsync,
                make: { (0..<5).publisher.tryAsyncMap(maxConcurrent: 2) { $0 } },
                failing: { (0..<5).publisher.tryAsyncMap(maxConcurrent: 2, throwingOnTwo) }),
        ]
    }

    // foundation: coders, NotificationCenter, URLSession.
    private static var foundationRows: [ConformanceRow] {
        [
            .cold(
                "Publishers.Decode", elements: 5, options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(5).map { Data("[\($0)]".utf8) }.decode(type: [Int].self, decoder: JSONDecoder()) },
                failing: {
                    recorded(5).map { Data($0 == 2 ? "{".utf8 : "[\($0)]".utf8) }
                        .decode(type: [Int].self, decoder: JSONDecoder())
                }),
            .cold(
                "Publishers.Decode", "upstream failure", elements: 5,
                options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(5).map { Data("\($0)".utf8) }.decode(type: Int.self, decoder: JSONDecoder()) },
                failing: {
                    recorded(2, thenFails: true).map { Data("\($0)".utf8) }.decode(
                        type: Int.self, decoder: JSONDecoder())
                }),
            .cold(
                "Publishers.Encode", elements: 5, options: .tether(keepsSubscriber: true).overRecorded,
                make: { recorded(5).encode(encoder: JSONEncoder()) },
                failing: { recorded(2, thenFails: true).encode(encoder: JSONEncoder()) }),
            .driven(
                "NotificationCenter.Publisher", elements: 5, options: .tether(keepsSubscriber: true),
                make: notificationsUnderTest),
            .cold(
                "URLSession.DataTaskPublisher", elements: 1, options: .dataTask,
                make: servedDataTask, failing: failingDataTask),
        ]
    }

    // Subjects and operators of TetherExtras (replay, relays, withLatestFrom, materialize).
    private static var extrasSharingRows: [ConformanceRow] {
        [
            .driven("ReplaySubject", elements: 5, options: .tether(multicast: true), make: replayUnderTest),
            .driven("Publishers.Autoconnect", "share(replay:)", elements: 5, options: .multicastIgnoringZeroDemand) {
                wrapped(passthroughUnderTest()) { $0.share(replay: 2) }
            },
            // A relay never finishes: prefix(5) ends each subscription after the elements, and
            // cancels the relay's subscription, which is what these rows check.
            .driven("PassthroughRelay", "prefix", elements: 5, options: .tether(multicast: true, keepsSubscriber: true))
            {
                let relay = PassthroughRelay<Int>()
                return .hot(relay.prefix(5), send: { relay.accept($0) }, finish: {})
            },
            .driven(
                "CurrentValueRelay", "prefix", elements: 5, options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                let relay = CurrentValueRelay(0)
                return .hot(relay.prefix(5), replays: 1, send: { relay.accept($0) }, finish: {})
            },
            .cold(
                "Publishers.WithLatestFrom", elements: 5, options: .tether(),
                make: { recorded(5).withLatestFrom(Just(10).setFailureType(to: TestError.self), resultSelector: +) },
                failing: { recorded(2, thenFails: true).withLatestFrom(Just(10).setFailureType(to: TestError.self)) }),
            .driven("Publishers.WithLatestFrom", "subject", elements: 5, options: .tether(multicast: true)) {
                wrapped(passthroughUnderTest()) {
                    $0.withLatestFrom(CurrentValueSubject<Int, TestError>(0)) { value, _ in value }
                }
            },
            // Five values and the completion event.
            .cold("Publishers.Materialize", elements: 6, options: .tether()) { recorded(5).materialize() },
            // The subject is sent five values; the sixth element is the event `finish` makes.
            .driven("Publishers.Materialize", "subject", elements: 6, options: .tether(multicast: true)) {
                let subject = PassthroughSubject<Int, TestError>()
                return .hot(
                    subject.materialize(), send: { index in if index < 5 { subject.send(index) } },
                    finish: { subject.send(completion: .finished) })
            },
            .cold(
                "Publishers.Dematerialize", elements: 5, options: .tether(),
                make: { recorded(5).materialize().dematerialize() },
                failing: { recorded(2, thenFails: true).materialize().dematerialize() }),
        ]
    }

    // termination: publishers that fail instead of finishing, or never complete.
    private static var terminationRows: [ConformanceRow] {
        [
            // Fail sends no elements: the checks expect the failure wherever they would expect
            // `.finished`, and that nothing follows it and the subscriber is let go.
            .cold("Fail", elements: 0, options: .init(zeroDemand: .ignored, termination: .fails)) {
                Fail<Int, TestError>(error: TestError(id: 1))
            },
            // Never completes, and delivers every send once any demand was requested: checked are
            // nothing before the first request, every send after it, no overlap across four
            // sending threads, the same sequence for every subscriber, and cancel stopping
            // signals and letting go of the subscriber.
            .driven(
                "ObservableObjectPublisher", elements: 5,
                options: .init(
                    zeroDemand: .traps, termination: .never, demand: .uncountedOnceRequested, multicast: true,
                    concurrentSignals: true),
                make: objectWillChangeUnderTest),
            // Never completes: checked are the current value then each set, within the demand,
            // for every subscriber alike, and cancel stopping signals and letting go.
            .driven(
                "Published.Publisher", elements: 5, options: .init(termination: .never, multicast: true),
                make: publishedUnderTest),
        ]
    }

    // Composed operators of TetherExtras: operators built from Combine's own operators,
    // so each row names the existing type the composition returns.
    private static var composedRows: [ConformanceRow] {
        [
            // One inner: with several from a synchronous upstream, how many values survive the
            // switch depends on when the first request arrives (see the SwitchToLatest row).
            .cold(
                "Publishers.SwitchToLatest", "flatMapLatest", elements: 5, options: .tether(keepsSubscriber: true),
                make: { Just(5).setFailureType(to: TestError.self).flatMapLatest { recorded($0) } },
                failing: { Just(2).setFailureType(to: TestError.self).flatMapLatest { recorded($0, thenFails: true) } }
            ),
            .cold(
                "Publishers.FlatMap", "concatMap", elements: 5, options: .tether(),
                make: { recorded(5).concatMap { Just($0).setFailureType(to: TestError.self) } },
                failing: { recorded(2, thenFails: true).concatMap { Just($0).setFailureType(to: TestError.self) } }),
            .cold(
                "Publishers.CompactMap", "enumerated", elements: 5, options: .tether().overRecorded,
                make: { recorded(5).enumerated() },
                failing: { recorded(2, thenFails: true).enumerated() }),
            .cold(
                "Publishers.CompactMap", "pairwise", elements: 5, options: .tether().overRecorded,
                make: { recorded(6).pairwise() },
                failing: { recorded(3, thenFails: true).pairwise() }),
            .cold(
                "Publishers.Filter", "nwise", elements: 5, options: .tether().overRecorded,
                make: { recorded(7).nwise(3) },
                failing: { recorded(4, thenFails: true).nwise(3) }),
            .cold(
                "Publishers.Map", "toggle", elements: 5, options: .tether().overRecorded,
                make: { recorded(5).map { $0.isMultiple(of: 2) }.toggle() },
                failing: { recorded(2, thenFails: true).map { $0.isMultiple(of: 2) }.toggle() }),
            // mapToResult: five successes from the first, two successes and the failure value
            // from the second.
            .cold("Publishers.Catch", "mapToResult", elements: 5, options: .tether(keepsSubscriber: true)) {
                recorded(5).mapToResult()
            },
            .cold("Publishers.Catch", "mapToResult of a failure", elements: 3, options: .tether(keepsSubscriber: true))
            {
                recorded(2, thenFails: true).mapToResult()
            },
            .cold("Publishers.Catch", "ignoreFailure", elements: 2, options: .tether(keepsSubscriber: true)) {
                recorded(2, thenFails: true).ignoreFailure()
            },
            .driven(
                "Publishers.Catch", "ignoreFailure subject", elements: 5,
                options: .tether(multicast: true, keepsSubscriber: true)
            ) {
                let subject = PassthroughSubject<Int, TestError>()
                return .hot(
                    subject.ignoreFailure(), send: { subject.send($0) }, finish: { subject.send(completion: .finished) }
                )
            },
        ]
    }

    /// Publisher types deliberately left out of the table, with the reason.
    static let exempt: [String: String] = [
        // core publishers and operators
        "Timer.TimerPublisher": """
        It ticks on a run loop at its own pace rather than when told to, so the kit cannot \
        drive an exact number of elements, which even `termination: .never` needs (produced \
        on demand or by a send). TimerPublisherTests cover demand, connection and cancellation.
        """
    ]

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

    /// A row verifies the type it names: an eager fusion (`(0..<5).publisher.eraseToAnyPublisher().contains(3)` is a
    /// `Result.Publisher`, not a `Publishers.Contains`) would otherwise pass for the operator.
    func testEveryRowVerifiesTheTypeItNames() {
        for row in Self.rows {
            // "TetherCore.Publishers.Map<Swift.Int, …>" → "Publishers.Map"
            var name = ""
            var depth = 0
            for character in row.madeType {
                if character == "<" {
                    depth += 1
                } else if character == ">" {
                    depth -= 1
                } else if depth == 0 {
                    name.append(character)
                }
            }
            let unqualified = name.split(separator: ".").dropFirst().joined(separator: ".")
            // A row may wrap the type it names to make it finish (`prefix`, `prefix(untilOutputFrom:)`).
            let wrapped =
                row.madeType.contains(".\(row.type)<") || row.madeType.contains(".\(row.type),")
                || row.madeType.contains(".\(row.type)>")
            XCTAssertTrue(unqualified == row.type || wrapped, "the row \(row.name) verifies \(row.madeType)")
        }
    }

    func testEveryPublicPublisherTypeHasARow() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let declared = try PublicPublisherScan.publisherTypes(
            under: [
                sources.appendingPathComponent("TetherCore"), sources.appendingPathComponent("TetherFoundation"),
                sources.appendingPathComponent("Tether"), sources.appendingPathComponent("TetherExtras"),
            ])
        XCTAssertTrue(declared.contains("Publishers.Sequence"), "the scan found \(declared.sorted())")
        let covered = Set(Self.rows.map(\.type)).union(Self.exempt.keys)
        let missing = declared.subtracting(covered).sorted()
        XCTAssertEqual(missing, [], "public publishers without a row in ConformanceTableTests.rows: \(missing)")
        let unknown = covered.subtracting(declared).sorted()
        XCTAssertEqual(unknown, [], "rows naming types the scan did not find: \(unknown)")
    }
}

extension PublisherConformance.Options {
    /// Tether's promises for publishers that deliver from tasks: thread-safe requests, a trap on
    /// `request(.none)`, and signals that stop soon (not at once) after `cancel()`.
    /// Tether's options for a multicast stream whose operator ignores `request(.none)`.
    static var ignoringZeroDemand: Self {
        Self(zeroDemand: .ignored, multicast: true, concurrentSignals: true, cancellation: .immediate)
    }

    static var tetherAsync: Self {
        Self(zeroDemand: .traps, concurrentSignals: true, cancellation: .eventual, quietPeriod: 0.05)
    }
}

/// A `ReplaySubject` that was sent elements 0 and 1 before anyone subscribed, fed with the rest.
func replayUnderTest() -> PublisherUnderTest<ReplaySubject<Int, TestError>> {
    let subject = ReplaySubject<Int, TestError>(bufferSize: 2)
    subject.send(0)
    subject.send(1)
    return .hot(
        subject, replays: 2, send: { subject.send($0) }, finish: { subject.send(completion: .finished) },
        fail: { subject.send(completion: .failure(TestError(id: 1))) })
}
