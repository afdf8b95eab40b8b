import Foundation
import Tether
import TetherTesting
import XCTest

/// Collects what a `print` operator writes, one `write` call per element.
final class CollectingStream: TextOutputStream, @unchecked Sendable {
    private let lock = NSLock()
    private var written: [String] = []

    func write(_ string: String) {
        lock.lock()
        written.append(string)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return written.joined()
    }

    var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// A reference to a `CollectingStream`, so that every copy of the stream writes to one place.
struct StreamHandle: TextOutputStream {
    let target: CollectingStream
    mutating func write(_ string: String) { target.write(string) }
}

final class PrintTests: TetherTestCase {
    func testLinesWithoutPrefixMatchCombines() {
        let stream = CollectingStream()
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1)) { $0 == 1 ? .max(2) : .none }
        upstream.print(to: StreamHandle(target: stream)).subscribe(recorder)
        upstream.send(1)
        upstream.send(2)
        recorder.request(.unlimited)
        upstream.send(completion: .finished)
        XCTAssertEqual(
            stream.lines,
            [
                "receive subscription: (RecordingSubscription)",
                "request max: (1)",
                "receive value: (1)",
                "request max: (2) (synchronous)",
                "receive value: (2)",
                "request unlimited",
                "receive finished",
            ])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.max(1)), .requested(.unlimited)])
        upstream.releaseSubscribers()
    }

    func testLinesWithPrefixForErrorsAndCancel() {
        let stream = CollectingStream()
        let upstream = RecordingPublisher<Int, TestError>()
        let recorder = RecordingSubscriber<Int, TestError>(demand: .unlimited) { _ in .unlimited }
        upstream.print("👉", to: StreamHandle(target: stream)).subscribe(recorder)
        upstream.send(7)
        recorder.cancel()
        XCTAssertEqual(
            stream.lines,
            [
                "👉: receive subscription: (RecordingSubscription)",
                "👉: request unlimited",
                "👉: receive value: (7)",
                "👉: request unlimited (synchronous)",
                "👉: receive cancel",
            ])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])

        let failing = CollectingStream()
        let second = RecordingPublisher<Int, TestError>()
        let other = RecordingSubscriber<Int, TestError>(demand: .none)
        second.print("p", to: StreamHandle(target: failing)).subscribe(other)
        second.send(completion: .failure(TestError(id: 3)))
        XCTAssertEqual(
            failing.lines, ["p: receive subscription: (RecordingSubscription)", "p: receive error: (TestError(3))"])
        XCTAssertEqual(other.events, [.subscription, .completion(.failure(TestError(id: 3)))])
        upstream.releaseSubscribers()
        second.releaseSubscribers()
    }

    func testSequenceWithSinkPrintsNoSynchronousDemandOfNone() {
        let stream = CollectingStream()
        let cancellable = [1, 2].publisher.print("Logged a message", to: StreamHandle(target: stream)).sink { _ in }
        XCTAssertEqual(
            stream.lines,
            [
                "Logged a message: receive subscription: ([1, 2])",
                "Logged a message: request unlimited",
                "Logged a message: receive value: (1)",
                "Logged a message: receive value: (2)",
                "Logged a message: receive finished",
            ])
        cancellable.cancel()
    }

    func testEachLineIsWrittenAsTheTextThenTheNewline() {
        let stream = CollectingStream()
        let cancellable = Just(1).print(to: StreamHandle(target: stream)).sink { _ in }
        XCTAssertTrue(stream.text.hasPrefix("receive subscription: (Just)\nrequest unlimited\n"), stream.text)
        cancellable.cancel()
    }

    func testValuesArePassedOnAfterCancelAndEveryCallIsLogged() {
        let stream = CollectingStream()
        let upstream = RecordingPublisher<Int, Never>()
        let recorder = RecordingSubscriber<Int, Never>()
        upstream.print(to: StreamHandle(target: stream)).subscribe(recorder)
        let subscription = recorder.subscription
        recorder.cancel()
        upstream.send(1)
        subscription?.request(.max(1))
        // As Combine's: the value still reaches the downstream; the request no longer goes up.
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        XCTAssertEqual(
            stream.lines.suffix(3), ["receive cancel", "receive value: (1)", "request max: (1)"])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        upstream.releaseSubscribers()
    }

    func testConcurrentValuesNeverInterleaveWithinALine() {
        let stream = CollectingStream()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.print("x", to: StreamHandle(target: stream)).sink { _ in }
        DispatchQueueStandIn.concurrentPerform(iterations: 4) { thread in
            for value in 0..<50 { subject.send(thread * 100 + value) }
        }
        cancellable.cancel()
        let values = stream.lines.filter { $0.hasPrefix("x: receive value: (") }
        XCTAssertEqual(values.count, 200)
        XCTAssertTrue(stream.lines.allSatisfy { $0.hasPrefix("x: ") })
    }

    func testDescriptionAndRelease() {
        let stream = CollectingStream()
        let upstream = RecordingPublisher<Int, Never>()
        var recorder: RecordingSubscriber<Int, Never>? = RecordingSubscriber()
        weak let weakRecorder = recorder
        upstream.print(to: StreamHandle(target: stream)).subscribe(recorder!)
        XCTAssertEqual(recorder?.subscriptionDescriptions, ["Print"])
        upstream.send(completion: .finished)
        recorder = nil
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        upstream.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }
}
