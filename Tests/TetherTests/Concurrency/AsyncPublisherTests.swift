import Foundation
import Synchronization
import Tether
@testable import TetherCore
import TetherExtras
import TetherTesting
import XCTest

final class AsyncPublisherTests: TetherTestCase {
    func testForAwaitDeliversEveryValueThenEnds() {
        runAsync {
            var received: [Int] = []
            for await value in (1...5).publisher.values {
                received.append(value)
            }
            XCTAssertEqual(received, [1, 2, 3, 4, 5])
        }
    }

    func testRequestsExactlyOnePerNext() {
        let publisher = RecordingPublisher<Int, Never>()
        runAsync {
            var iterator = publisher.values.makeAsyncIterator()
            XCTAssertEqual(publisher.subscription?.events, [], "subscribed without demand")
            async let first = iterator.next()
            XCTAssertTrue(eventually { publisher.subscription?.events == [.requested(.max(1))] })
            _ = publisher.send(10)
            let value = await first
            XCTAssertEqual(value, 10)
            XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
            _ = iterator
        }
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1)), .cancelled])
    }

    func testBreakingOutOfTheLoopCancelsTheSubscription() {
        let publisher = RecordingPublisher<Int, Never>()
        // Sends only what a `next()` asked for and has not had: a value sent while no call waits
        // traps, as in Combine, and the loop's last value leaves nothing asked for.
        let feederEnded = DispatchSemaphore(value: 0)
        let feeder = Thread {
            var sent = 0
            while publisher.subscription?.events.last != .cancelled {
                if publisher.subscription?.totalDemand ?? Subscribers.Demand.none > .max(sent) {
                    _ = publisher.send(1)
                    sent += 1
                }
                usleep(200)
            }
            feederEnded.signal()
        }
        feeder.start()
        runAsync {
            var count = 0
            for await _ in publisher.values {
                count += 1
                if count == 3 { break }
            }
            XCTAssertEqual(count, 3)
        }
        XCTAssertEqual(publisher.subscription?.events.last, .cancelled)
        XCTAssertEqual(publisher.subscription?.events.filter { $0 == .requested(.max(1)) }.count, 3)
        // Before the subscription goes: the feeder stops when it sees it cancelled.
        XCTAssertEqual(feederEnded.wait(timeout: .now() + 5), .success)
        publisher.releaseSubscribers()
    }

    func testCancellingTheTaskDuringNextCancelsTheSubscriptionAndReturnsNil() throws {
        try requireLedger()
        let subject = PassthroughSubject<Int, Never>()
        let result = Mutex<[Int?]>([])
        let task = Task {
            var iterator = subject.values.makeAsyncIterator()
            let value = await iterator.next()
            result.withLock { $0.append(value) }
        }
        XCTAssertTrue(eventually { relayIsAlive() })
        task.cancel()
        XCTAssertTrue(eventually { result.withLock { $0.count } == 1 })
        XCTAssertEqual(result.withLock { $0 }, [nil])
        XCTAssertTrue(eventually { !relayIsAlive() })
    }

    func testValuesSentWithoutDemandAreDroppedNotBuffered() {
        let subject = PassthroughSubject<Int, Never>()
        let requests = Atomic(0)
        let box = IteratorBox(
            subject.handleEvents(receiveRequest: { _ in requests.add(1, ordering: .sequentiallyConsistent) })
                .values.makeAsyncIterator())
        runAsync {
            subject.send(1)  // no next() yet: no demand
            async let next = box.next()
            XCTAssertTrue(eventually { requests.load(ordering: .sequentiallyConsistent) == 1 })
            subject.send(2)
            let value = await next
            XCTAssertEqual(value, 2)
        }
    }

    func testThrowingValuesThrowTheFailureThenEnd() {
        let subject = PassthroughSubject<Int, TestError>()
        let publisher = Record<Int, TestError>(output: [1, 2], completion: .failure(TestError(id: 7)))
        runAsync {
            var received: [Int] = []
            do {
                for try await value in publisher.values { received.append(value) }
                XCTFail("no error thrown")
            } catch let error as TestError {
                XCTAssertEqual(error, TestError(id: 7))
            }
            XCTAssertEqual(received, [1, 2])
            var iterator = publisher.values.makeAsyncIterator()
            _ = try? await iterator.next()
            _ = try? await iterator.next()
            await XCTAssertThrowsAsync { _ = try await iterator.next() }
            let after = try await iterator.next()
            XCTAssertNil(after, "after the failure the iterator ends")
        }
        _ = subject
    }

    func testCompletionWithoutDemandIsKeptForTheNextCall() {
        let subject = PassthroughSubject<Int, Never>()
        runAsync {
            var iterator = subject.values.makeAsyncIterator()
            subject.send(completion: .finished)
            let value = await iterator.next()
            XCTAssertNil(value)
        }
    }

    func testReleasingAnUnusedIteratorCancelsAndReleasesTheRelay() throws {
        try requireLedger()
        let publisher = RecordingPublisher<Int, Never>()
        do {
            let iterator = publisher.values.makeAsyncIterator()
            XCTAssertTrue(relayIsAlive())
            _ = iterator
        }
        XCTAssertEqual(publisher.subscription?.events, [.cancelled])
        publisher.releaseSubscribers()
        XCTAssertFalse(relayIsAlive())
    }

    func testOverlappingCallsMadeBeforeTheSubscriptionAreAskedForTogether() {
        let publisher = HeldSubscriberPublisher<Int, Never>()
        let box = IteratorBox(publisher.values.makeAsyncIterator())
        let subscription = RecordingSubscription()
        runAsync {
            async let first = box.next()
            async let second = box.next()
            XCTAssertTrue(eventually { waitingCalls(publisher) == 2 })
            publisher.subscriber?.receive(subscription: subscription)
            XCTAssertEqual(subscription.events, [.requested(.max(2))])
            XCTAssertEqual(publisher.subscriber?.receive(1), Subscribers.Demand.none)
            XCTAssertEqual(publisher.subscriber?.receive(2), Subscribers.Demand.none)
            let values = await [first, second]
            XCTAssertEqual(values.compactMap { $0 }.sorted(), [1, 2])
        }
    }

    /// The first caller asked while alone and was not answered inside its request: it is still
    /// the oldest, ahead of the callers that came after it.
    func testAValueThenAFailureGoToTheOldestCallersAndTheOthersEnd() {
        let publisher = HeldSubscriberPublisher<Int, TestError>()
        let box = ThrowingIteratorBox(publisher.values.makeAsyncIterator())
        let subscription = RecordingSubscription()
        publisher.subscriber?.receive(subscription: subscription)
        runAsync {
            async let first = box.next()
            XCTAssertTrue(eventually { subscription.events.count == 1 })
            async let second = box.next()
            XCTAssertTrue(eventually { subscription.events.count == 2 })
            async let third = box.next()
            XCTAssertTrue(eventually { subscription.events.count == 3 })
            XCTAssertEqual(publisher.subscriber?.receive(1), Subscribers.Demand.none)
            publisher.subscriber?.receive(completion: .failure(TestError(id: 1)))
            let outcomes = await [first, second, third]
            XCTAssertEqual(outcomes, [.success(1), .failure(TestError(id: 1)), .success(nil)])
            XCTAssertEqual(subscription.events, Array(repeating: .requested(.max(1)), count: 3))
        }
    }

    func testCancellingTheSubscriberEndsEveryWaitingCaller() {
        let publisher = HeldSubscriberPublisher<Int, Never>()
        let box = IteratorBox(publisher.values.makeAsyncIterator())
        let subscription = RecordingSubscription()
        publisher.subscriber?.receive(subscription: subscription)
        runAsync {
            async let first = box.next()
            async let second = box.next()
            XCTAssertTrue(eventually { subscription.events.count == 2 })
            let cancellable = try XCTUnwrap(publisher.erased as? any Cancellable)
            cancellable.cancel()
            cancellable.cancel()
            let values = await [first, second]
            XCTAssertEqual(values, [nil, nil])
            XCTAssertEqual(subscription.events, [.requested(.max(1)), .requested(.max(1)), .cancelled])
        }
    }

    func testAValueBeforeTheSubscriptionEndsTheWaitingCallersAndKeepsTheirDemand() {
        let publisher = HeldSubscriberPublisher<Int, Never>()
        let box = IteratorBox(publisher.values.makeAsyncIterator())
        let subscription = RecordingSubscription()
        runAsync {
            async let first = box.next()
            XCTAssertTrue(eventually { waitingCalls(publisher) == 1 })
            XCTAssertEqual(publisher.subscriber?.receive(42), Subscribers.Demand.none)
            let value = await first
            XCTAssertNil(value)
        }
        publisher.subscriber?.receive(subscription: subscription)
        XCTAssertEqual(subscription.events, [.requested(.max(1))], "as in Combine")
    }

    func testAValueAndTheFinishSentInsideTheRequestAnswerTwoCalls() {
        let publisher = HeldSubscriberPublisher<Int, Never>()
        let box = IteratorBox(publisher.values.makeAsyncIterator())
        let subscription = AnsweringSubscription { count in
            XCTAssertEqual(publisher.subscriber?.receive(count), Subscribers.Demand.none)
            if count == 2 { publisher.subscriber?.receive(completion: .finished) }
        }
        publisher.subscriber?.receive(subscription: subscription)
        runAsync {
            let values = [await box.next(), await box.next(), await box.next()]
            XCTAssertEqual(values, [1, 2, nil])
        }
        XCTAssertEqual(subscription.requests, [.max(1), .max(1)])
    }

    func testAFailureSentInsideTheRequestAnswersTheCallerThatAskedAndTheNextEnds() {
        let publisher = HeldSubscriberPublisher<Int, TestError>()
        let box = ThrowingIteratorBox(publisher.values.makeAsyncIterator())
        let subscription = AnsweringSubscription { _ in
            publisher.subscriber?.receive(completion: .failure(TestError(id: 7)))
        }
        publisher.subscriber?.receive(subscription: subscription)
        runAsync {
            let outcomes = [await box.next(), await box.next()]
            XCTAssertEqual(outcomes, [.failure(TestError(id: 7)), .success(nil)])
        }
        XCTAssertEqual(subscription.requests, [.max(1)])
    }
}

/// A subscription that answers each request at once, inside it, with `answer(n)` for the n-th.
private final class AnsweringSubscription: Subscription, @unchecked Sendable {
    private let answer: (Int) -> Void
    private let log = Locked<[Subscribers.Demand]>([])

    init(_ answer: @escaping (Int) -> Void) { self.answer = answer }

    var requests: [Subscribers.Demand] { log.withLock { $0 } }

    func request(_ demand: Subscribers.Demand) {
        let count = log.withLock { requests in
            requests.append(demand)
            return requests.count
        }
        answer(count)
    }

    func cancel() {}
}

/// Whether an `AsyncPublisher` iterator's subscriber is alive, read from the ledger.
func relayIsAlive() -> Bool {
    SubscriptionLedger.snapshot().contains { $0.type.hasPrefix("IterationSubscriber") }
}

func XCTAssertThrowsAsync(
    file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void
) async {
    do {
        try await body()
        XCTFail("expected an error", file: file, line: line)
    } catch {}
}

/// A publisher that keeps its one subscriber for the test to drive, subscription included.
private final class HeldSubscriberPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private let held = Locked<(AnySubscriber<Output, Failure>, Any)?>(nil)

    var subscriber: AnySubscriber<Output, Failure>? { held.withLock { $0?.0 } }
    var erased: Any? { held.withLock { $0?.1 } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        held.withLock { $0 = (AnySubscriber(subscriber), subscriber) }
    }
}

/// How many calls of `next()` wait for the subscriber `publisher` holds, the iterator's relay:
/// a test sends only once they have asked, as a value nobody asked for traps.
private func waitingCalls<Output, Failure>(_ publisher: HeldSubscriberPublisher<Output, Failure>) -> Int {
    guard let relay = publisher.erased as? IterationSubscriber<Output, Failure> else { return 0 }
    return relay.state.withLock { $0.waiters.count }
}

/// An iterator that several tasks advance at once, each through its own copy.
private final class IteratorBox<P: Publisher>: @unchecked Sendable where P.Failure == Never {
    let iterator: AsyncPublisher<P>.Iterator
    init(_ iterator: AsyncPublisher<P>.Iterator) { self.iterator = iterator }

    func next() async -> P.Output? {
        var copy = iterator
        return await copy.next()
    }
}

/// ``IteratorBox`` for a publisher that can fail; `next()` returns what the call gave.
private final class ThrowingIteratorBox<P: Publisher>: @unchecked Sendable where P.Failure == TestError {
    let iterator: AsyncThrowingPublisher<P>.Iterator
    init(_ iterator: AsyncThrowingPublisher<P>.Iterator) { self.iterator = iterator }

    func next() async -> Result<P.Output?, TestError> {
        var copy = iterator
        do {
            return .success(try await copy.next())
        } catch {
            return .failure(error as! TestError)
        }
    }
}
