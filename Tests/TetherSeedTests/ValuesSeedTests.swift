// Seed 002, solution three: `for await` over a buffered publisher's `values`, and the article's own
// AsyncStream-backed `CombineAsyncPublsiher` with its `sequence` property, compiled as written.
import Foundation
import Tether
import XCTest

public struct CombineAsyncPublsiher<P>: AsyncSequence, AsyncIteratorProtocol where P: Publisher, P.Failure == Never {
    public typealias Element = P.Output
    public typealias AsyncIterator = CombineAsyncPublsiher<P>

    public func makeAsyncIterator() -> Self {
        return self
    }

    private let stream: AsyncStream<P.Output>
    private var iterator: AsyncStream<P.Output>.Iterator
    private var cancellable: AnyCancellable?

    public init(_ upstream: P, bufferingPolicy limit: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded) {
        var subscription: AnyCancellable?
        stream = AsyncStream<P.Output>(P.Output.self, bufferingPolicy: limit) { continuation in
            subscription =
                upstream
                .sink(receiveValue: { value in
                    continuation.yield(value)
                })
        }
        cancellable = subscription
        iterator = stream.makeAsyncIterator()
    }

    public mutating func next() async -> P.Output? {
        await iterator.next()
    }
}

public extension Publisher where Self.Failure == Never {
    var sequence: CombineAsyncPublsiher<Self> {
        CombineAsyncPublsiher(self)
    }
}

final class ValuesSeedTests: XCTestCase {
    func testForAwaitOverBufferedValuesProcessesSerially() {
        let log = PrintLog()
        func asyncPrint(value: String) async {
            await log.begin("hello \(value)")
            try? await Task.sleep(nanoseconds: 20_000_000)
            await log.end()
        }
        let publisher = PassthroughSubject<String, Never>()
        let p =
            publisher
            .buffer(size: 10, prefetch: .keepFull, whenFull: .dropOldest)
        let loop = Task {
            for await value in p.values {
                await asyncPrint(value: value)
            }
        }
        waitForSubjectSubscriber()
        publisher.send("fat")
        publisher.send("bob")
        publisher.send("man")
        let (lines, mostAtOnce) = waitForLines(log, count: 3)
        XCTAssertEqual(lines, ["hello fat", "hello bob", "hello man"])
        XCTAssertEqual(mostAtOnce, 1, "an async sequence handles one value at a time")
        loop.cancel()
    }

    func testForAwaitOverValuesWithoutABufferDropsWhatArrivesDuringTheBody() {
        let log = PrintLog()
        func asyncPrint(value: String) async {
            await log.begin("hello \(value)")
            try? await Task.sleep(nanoseconds: 50_000_000)
            await log.end()
        }
        let publisher = PassthroughSubject<String, Never>()
        let started = expectation(description: "loop waiting")
        let loop = Task {
            var iterator = publisher.values.makeAsyncIterator()
            started.fulfill()
            while let value = await iterator.next() {
                await asyncPrint(value: value)
            }
        }
        wait(for: [started], timeout: 5)
        // The loop's first `next()` asks for a value just after `started`: "fat" is sent until
        // that demand takes it (a send before it is dropped, as "bob" is below), then "bob" while
        // the body runs.
        let deadline = Date(timeIntervalSinceNow: 5)
        while read(log).0.isEmpty && Date() < deadline {
            publisher.send("fat")
            usleep(1_000)
        }
        publisher.send("bob")
        let (lines, _) = waitForLines(log, count: 1)
        usleep(100_000)
        XCTAssertEqual(lines, ["hello fat"])
        XCTAssertEqual(read(log).0, ["hello fat"], "values demands one at a time: bob had no demand")
        loop.cancel()
    }

    func testTheAsyncStreamBackedSequenceWorks() {
        let log = PrintLog()
        func asyncPrint(value: String) async {
            await log.begin("hello \(value)")
            try? await Task.sleep(nanoseconds: 20_000_000)
            await log.end()
        }
        let publisher = PassthroughSubject<String, Never>()
        let p =
            publisher
            .print()  // 观察订阅器的请求情况。 values 的实现同方案二一样。
        // sequence 使用了 AsyncStream 的 buffer,因此无需再设定 buffer

        let loop = Task {
            for await value in p.sequence {
                await asyncPrint(value: value)
            }
        }
        waitForSubjectSubscriber()
        publisher.send("fat")
        publisher.send("bob")
        publisher.send("man")
        let (lines, mostAtOnce) = waitForLines(log, count: 3)
        XCTAssertEqual(lines, ["hello fat", "hello bob", "hello man"], "the stream buffers what the sink receives")
        XCTAssertEqual(mostAtOnce, 1)
        loop.cancel()
    }
}
