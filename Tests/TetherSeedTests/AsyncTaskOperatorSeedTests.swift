// Seed 002 ("Combine with async/await"), solution one, compiled as the article writes it: a
// `task` operator on `flatMap(maxPublishers:)` + `Deferred` + `Future`, and `emptySink`.
import Foundation
import Tether
import XCTest

public extension Publisher {
    func task<T>(
        maxPublishers: Subscribers.Demand = .unlimited,
        _ transform: @escaping (Output) async -> T
    ) -> Publishers.FlatMap<Deferred<Future<T, Never>>, Self> {
        flatMap(maxPublishers: maxPublishers) { value in
            Deferred {
                Future { promise in
                    Task {
                        let output = await transform(value)
                        promise(.success(output))
                    }
                }
            }
        }
    }
}

public extension Publisher where Self.Failure == Never {
    func emptySink() -> AnyCancellable {
        sink(receiveValue: { _ in })
    }
}

/// Records what the article prints, and how many calls ran at once.
actor PrintLog {
    var lines: [String] = []
    var running = 0
    var mostAtOnce = 0

    func begin(_ line: String) {
        lines.append(line)
        running += 1
        mostAtOnce = max(mostAtOnce, running)
    }

    func end() { running -= 1 }
}

final class AsyncTaskOperatorSeedTests: XCTestCase {
    func testTaskOperatorHandlesValuesOneAtATimeInOrder() {
        let log = PrintLog()
        func asyncPrint(value: String) async {
            await log.begin("hello \(value)")
            try? await Task.sleep(nanoseconds: 20_000_000)
            await log.end()
        }
        var cancellables = Set<AnyCancellable>()
        let done = expectation(description: "three values handled")
        ["abc", "sdg", "353"].publisher
            .task(maxPublishers: .max(1)) { value in
                await asyncPrint(value: value)
            }
            .collect()
            .sink { _ in done.fulfill() }
            .store(in: &cancellables)
        wait(for: [done], timeout: 10)
        let (lines, mostAtOnce) = read(log)
        XCTAssertEqual(lines, ["hello abc", "hello sdg", "hello 353"])
        XCTAssertEqual(mostAtOnce, 1, "maxPublishers: .max(1) runs one transform at a time")
    }

    func testEmptySinkKeepsTheSubscriptionUntilCancelled() {
        var cancellables = Set<AnyCancellable>()
        let subject = PassthroughSubject<String, Never>()
        subject.emptySink().store(in: &cancellables)
        subject.send("ignored")
        XCTAssertEqual(cancellables.count, 1)
        cancellables.removeAll()
    }
}
