// Seed 002, solution one with a subject: without a buffer the values sent while the one allowed
// transform runs are dropped (a subject delivers only what was demanded); the article's
// `buffer(size:prefetch:whenFull:)` in front keeps them. `task` and `emptySink` are the article's,
// compiled in AsyncTaskOperatorSeedTests.swift.
import Foundation
import Tether
import XCTest

final class BufferInFrontSeedTests: XCTestCase {
    func testWithoutABufferValuesSentWithoutDemandAreDropped() {
        let log = PrintLog()
        func asyncPrint(value: String) async {
            await log.begin("hello \(value)")
            try? await Task.sleep(nanoseconds: 20_000_000)
            await log.end()
        }
        var cancellables = Set<AnyCancellable>()
        let publisher = PassthroughSubject<String, Never>()
        publisher
            .task(maxPublishers: .max(1)) { value in
                await asyncPrint(value: value)
            }
            .emptySink()
            .store(in: &cancellables)

        publisher.send("fat")
        publisher.send("bob")
        publisher.send("man")
        _ = waitForLines(log, count: 1)
        usleep(100_000)
        let (lines, _) = read(log)
        XCTAssertEqual(lines, ["hello fat"], "bob and man arrived while no demand was outstanding")
        cancellables.removeAll()
    }

    func testABufferInFrontKeepsEveryValue() {
        let log = PrintLog()
        func asyncPrint(value: String) async {
            await log.begin("hello \(value)")
            try? await Task.sleep(nanoseconds: 20_000_000)
            await log.end()
        }
        var cancellables = Set<AnyCancellable>()
        let publisher = PassthroughSubject<String, Never>()
        publisher
            .buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)  // 缓存数量和策略根据业务的具体情况确定
            .task(maxPublishers: .max(1)) { value in
                await asyncPrint(value: value)
            }
            .emptySink()
            .store(in: &cancellables)

        publisher.send("fat")
        publisher.send("bob")
        publisher.send("man")
        let (lines, mostAtOnce) = waitForLines(log, count: 3)
        XCTAssertEqual(lines, ["hello fat", "hello bob", "hello man"])
        XCTAssertEqual(mostAtOnce, 1)
        cancellables.removeAll()
    }
}
