import Tether
import XCTest

/// Every operator family behind publishers written the way users write them.
///
/// CI runs this target in an optimised build with stack promotion on: before Tether made its
/// boxes out of line, each of these crashed there (see `Docs/StackPromotionReproducer.md`).
/// Each chain is a generic function, so it is specialised for each kind of user publisher.
final class UserPublisherOperatorTests: XCTestCase {
    func testMapFilterScan() {
        check(["4", "10", "finished"], mapFilterScan, mapFilterScan, mapFilterScan)
    }

    func testCompactMapRemoveDuplicates() {
        check(
            ["1", "3", "finished"], compactMapRemoveDuplicates, compactMapRemoveDuplicates,
            compactMapRemoveDuplicates)
    }

    func testTryMapCatch() {
        check(["1", "2", "9", "finished"], tryMapCatch, tryMapCatch, tryMapCatch)
    }

    func testBuffer() {
        check(["1", "2", "3", "finished"], buffer, buffer, buffer)
    }

    func testCollectReduceCount() {
        check(["[1, 2, 3]", "finished"], collect, collect, collect)
        check(["6", "finished"], reduce, reduce, reduce)
        check(["3", "finished"], count, count, count)
    }

    func testPrefixFirstDrop() {
        check(["1", "2", "finished"], prefix, prefix, prefix)
        check(["2", "finished"], firstWhere, firstWhere, firstWhere)
        check(["3", "finished"], dropFirst, dropFirst, dropFirst)
    }

    func testFlatMapSwitchToLatest() {
        check(["10", "20", "30", "finished"], flatMap, flatMap, flatMap)
        check(["1", "2", "3", "finished"], switchToLatest, switchToLatest, switchToLatest)
    }

    func testMergeZipCombineLatest() {
        check(["0", "1", "2", "3", "finished"], merge, merge, merge)
        check(["(1, 7)", "finished"], zip, zip, zip)
        check(
            ["(1, 7)", "(2, 7)", "(3, 7)", "finished"], combineLatest, combineLatest,
            combineLatest)
    }

    func testShareAndMulticast() {
        check(["1", "2", "3", "finished"], share, share, share)
        check(["1", "2", "3", "finished"], multicast, multicast, multicast)
    }

    func testSchedulingOperators() {
        check(["1", "2", "3", "finished"], receiveOn, receiveOn, receiveOn)
        check(["1", "2", "3", "finished"], subscribeOn, subscribeOn, subscribeOn)
        check(["1", "2", "3", "finished"], delay, delay, delay)
    }

    func testFailureOperators() {
        check(["1", "2", "3", "finished"], failureOperators, failureOperators, failureOperators)
    }

    func testHandleEventsAndErasure() {
        check(["1", "2", "3", "finished"], handleEvents, handleEvents, handleEvents)
        check(["2", "4", "6", "finished"], erased, erased, erased)
    }

    func testAssign() {
        XCTAssertEqual(assign(KeepingPublisher()), 3)
        XCTAssertEqual(assign(ClosurePublisher(registry: ClosurePublisher.Registry())), 3)
        XCTAssertEqual(assign(LaterPublisher()), 3)
    }

    func testAnySubscriberSubscribe() {
        XCTAssertEqual(subscribeAnySubscriber(KeepingPublisher()), [1, 2, 3])
        XCTAssertEqual(
            subscribeAnySubscriber(ClosurePublisher(registry: ClosurePublisher.Registry())),
            [1, 2, 3])
        XCTAssertEqual(subscribeAnySubscriber(LaterPublisher()), [1, 2, 3])
    }
}

// MARK: - The chains

private typealias Source = Publisher<Int, Never>

private struct Failed: Error {}

private func mapFilterScan(_ s: some Source & UserSource) -> [String] {
    record(s.map { $0 * 2 }.filter { $0 > 2 }.scan(0, +), from: s)
}

private func compactMapRemoveDuplicates(_ s: some Source & UserSource) -> [String] {
    record(s.compactMap { $0 == 2 ? nil : $0 }.removeDuplicates(), from: s)
}

private func tryMapCatch(_ s: some Source & UserSource) -> [String] {
    record(
        s.tryMap { value -> Int in
            if value == 3 { throw Failed() }
            return value
        }.catch { _ in Just(9) }, from: s)
}

private func buffer(_ s: some Source & UserSource) -> [String] {
    record(s.buffer(size: 8, prefetch: .byRequest, whenFull: .dropNewest), from: s)
}

private func collect(_ s: some Source & UserSource) -> [String] { record(s.collect(), from: s) }

private func reduce(_ s: some Source & UserSource) -> [String] { record(s.reduce(0, +), from: s) }

private func count(_ s: some Source & UserSource) -> [String] { record(s.count(), from: s) }

private func prefix(_ s: some Source & UserSource) -> [String] { record(s.prefix(2), from: s) }

private func firstWhere(_ s: some Source & UserSource) -> [String] {
    record(s.first { $0 > 1 }, from: s)
}

private func dropFirst(_ s: some Source & UserSource) -> [String] {
    record(s.dropFirst(2), from: s)
}

private func flatMap(_ s: some Source & UserSource) -> [String] {
    record(s.flatMap { Just($0 * 10) }, from: s)
}

private func switchToLatest(_ s: some Source & UserSource) -> [String] {
    record(s.map { Just($0) }.switchToLatest(), from: s)
}

private func merge(_ s: some Source & UserSource) -> [String] {
    record(Just(0).merge(with: s), from: s)
}

private func zip(_ s: some Source & UserSource) -> [String] { record(s.zip(Just(7)), from: s) }

private func combineLatest(_ s: some Source & UserSource) -> [String] {
    record(s.combineLatest(Just(7)), from: s)
}

private func share(_ s: some Source & UserSource) -> [String] {
    record(s.share().map { $0 }, from: s)
}

private func multicast(_ s: some Source & UserSource) -> [String] {
    record(s.multicast(subject: PassthroughSubject()).autoconnect(), from: s)
}

private func receiveOn(_ s: some Source & UserSource) -> [String] {
    record(s.receive(on: ImmediateScheduler.shared), from: s)
}

private func subscribeOn(_ s: some Source & UserSource) -> [String] {
    record(s.subscribe(on: ImmediateScheduler.shared), from: s)
}

private func delay(_ s: some Source & UserSource) -> [String] {
    record(s.delay(for: .zero, scheduler: ImmediateScheduler.shared), from: s)
}

private func failureOperators(_ s: some Source & UserSource) -> [String] {
    record(
        s.setFailureType(to: Failed.self).retry(1).mapError { $0 }.replaceError(with: 0),
        from: s)
}

private func handleEvents(_ s: some Source & UserSource) -> [String] {
    record(s.handleEvents(receiveOutput: { _ in }), from: s)
}

private func erased(_ s: some Source & UserSource) -> [String] {
    record(s.map { $0 * 2 }.eraseToAnyPublisher(), from: s)
}

private final class Target {
    var value = 0
}

private func assign(_ s: some Source & UserSource) -> Int {
    let target = Target()
    let cancellable = s.map { $0 }.assign(to: \.value, on: target)
    s.deliver([1, 2, 3])
    cancellable.cancel()
    return target.value
}

private func subscribeAnySubscriber(_ s: some Source & UserSource) -> [Int] {
    let received = Box<[Int]>([])
    s.map { $0 }.subscribe(
        AnySubscriber(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: {
                received.value.append($0); return .none
            }))
    s.deliver([1, 2, 3])
    return received.value
}

// MARK: - Running a chain

private final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Subscribes to `publisher` with a sink, then has `source` deliver 1, 2 and 3 from another
/// function, and returns what the sink received.
private func record<P: Publisher>(_ publisher: P, from source: some UserSource) -> [String] {
    let history = Box<[String]>([])
    let cancellable = publisher.sink(
        receiveCompletion: { completion in
            switch completion {
            case .finished: history.value.append("finished")
            case .failure: history.value.append("failure")
            }
        },
        receiveValue: { history.value.append("\($0)") })
    source.deliver([1, 2, 3])
    cancellable.cancel()
    return history.value
}

/// Runs one chain over each kind of user publisher and asserts the same history for each.
private func check(
    _ expected: [String],
    _ keeping: (KeepingPublisher) -> [String],
    _ closure: (ClosurePublisher) -> [String],
    _ later: (LaterPublisher) -> [String],
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(keeping(KeepingPublisher()), expected, "KeepingPublisher", file: file, line: line)
    XCTAssertEqual(
        closure(ClosurePublisher(registry: ClosurePublisher.Registry())), expected,
        "ClosurePublisher", file: file, line: line)
    XCTAssertEqual(later(LaterPublisher()), expected, "LaterPublisher", file: file, line: line)
}
