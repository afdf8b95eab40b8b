import Foundation
import Synchronization
import Tether
import TetherExtras
import TetherCore
import TetherTesting
import XCTest

final class ConcurrencyRacesTests: TetherTestCase {
    /// One round's state: a task suspended in `next()` on a publisher that has asked for one.
    private final class NextRound: @unchecked Sendable {
        let publisher = RecordingPublisher<Int, Never>()
        let result = Locked<[Int?]>([])
        var task: Task<Void, Never>?
    }

    func testCancellingTheTaskWhileAValueArrivesInNext() {
        var outcomes = (values: 0, nils: 0)
        Race.run(
            setup: { () -> NextRound in
                let round = NextRound()
                round.task = Task { [round] in
                    var iterator = round.publisher.values.makeAsyncIterator()
                    let value = await iterator.next()
                    round.result.withLock { $0.append(value) }
                }
                _ = eventually { round.publisher.subscription?.totalDemand == .max(1) }
                return round
            },
            { round in round.task?.cancel() },
            { round in _ = round.publisher.send(1) },
            check: { round in
                XCTAssertTrue(eventually { round.result.withLock { $0.count } == 1 })
                let value = round.result.withLock { $0.first ?? nil }
                if value == 1 { outcomes.values += 1 } else { outcomes.nils += 1 }
                XCTAssertTrue(value == 1 || value == nil, "got \(String(describing: value))")
                XCTAssertTrue(eventually { round.publisher.subscription?.events.last == .cancelled })
                round.publisher.releaseSubscribers()
            })
        XCTAssertEqual(outcomes.values + outcomes.nils, Race.defaultRounds)
    }

    func testCancellingTheTaskWhileThePublisherFinishes() {
        Race.run(
            setup: { () -> NextRound in
                let round = NextRound()
                round.task = Task { [round] in
                    var iterator = round.publisher.values.makeAsyncIterator()
                    let value = await iterator.next()
                    round.result.withLock { $0.append(value) }
                }
                _ = eventually { round.publisher.subscription?.totalDemand == .max(1) }
                return round
            },
            { round in round.task?.cancel() },
            { round in round.publisher.send(completion: .finished) },
            check: { round in
                XCTAssertTrue(eventually { round.result.withLock { $0.count } == 1 })
                XCTAssertEqual(round.result.withLock { $0 }, [nil])
                round.publisher.releaseSubscribers()
            })
    }

    func testAsyncSequencePublisherCancelRacingRequest() {
        Race.run(
            setup: { () -> RecordingSubscriber<Int, Never> in
                let recorder = RecordingSubscriber<Int, Never>(demand: .none)
                CountingAsyncSequence(limit: 3, pulls: AtomicCounter()).publisher.subscribe(recorder)
                return recorder
            },
            { recorder in recorder.cancel() },
            { recorder in recorder.request(.max(2)) },
            check: { recorder in
                XCTAssertTrue(eventually { SubscriptionLedger.liveCount <= 1 })
                XCTAssertLessThanOrEqual(recorder.values.count, 2)
            })
    }

    func testAsyncMapCancelRacingAnUpstreamValue() {
        Race.run(
            setup: { () -> (PassthroughSubject<Int, Never>, RecordingSubscriber<Int, Never>) in
                let subject = PassthroughSubject<Int, Never>()
                let recorder = RecordingSubscriber<Int, Never>()
                subject.asyncMap(maxConcurrent: 2) { $0 }.subscribe(recorder)
                return (subject, recorder)
            },
            { pair in pair.1.cancel() },
            { pair in pair.0.send(1) },
            check: { pair in
                XCTAssertNil(pair.1.completion)
                XCTAssertTrue(
                    eventually { SubscriptionLedger.liveCount <= 1 }, SubscriptionLedger.snapshot().description)
            })
    }

    func testAsyncSinkCancelRacingAValue() {
        Race.run(
            setup: { () -> (PassthroughSubject<Int, Never>, AnyCancellable) in
                let subject = PassthroughSubject<Int, Never>()
                let cancellable = subject.asyncSink { _ in await Task.yield() }
                return (subject, cancellable)
            },
            { pair in pair.1.cancel() },
            { pair in pair.0.send(1) },
            check: { _ in
                XCTAssertTrue(
                    eventually { SubscriptionLedger.liveCount <= 1 }, SubscriptionLedger.snapshot().description)
            })
    }

    /// Each request is answered from another thread, so the value lands before the caller takes
    /// its answer, while it suspends, or after: every value still answers exactly one call, in
    /// order.
    func testValuesAnsweredFromAnotherThreadAsTheRequestReturnsReachEveryCallInOrder() {
        let publisher = AnsweredElsewherePublisher(count: 2_000)
        runAsync(timeout: 60) {
            var received: [Int] = []
            for await value in publisher.values { received.append(value) }
            XCTAssertEqual(received, Array(1...2_000))
        }
    }
}

/// Answers the n-th request, on a global queue, with the value n, and finishes after `count`.
private final class AnsweredElsewherePublisher: Publisher, @unchecked Sendable {
    typealias Output = Int
    typealias Failure = Never

    let count: Int

    init(count: Int) { self.count = count }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Answering(AnySubscriber(subscriber), count: count))
    }

    private final class Answering: Subscription, @unchecked Sendable {
        let subscriber: AnySubscriber<Int, Never>
        let count: Int
        let sent = Locked(0)

        init(_ subscriber: AnySubscriber<Int, Never>, count: Int) {
            self.subscriber = subscriber
            self.count = count
        }

        func request(_ demand: Subscribers.Demand) {
            let value = sent.withLock { sent -> Int in
                sent += 1
                return sent
            }
            // The call after the last value may ask before the finish has gone out.
            guard value <= count else { return }
            DispatchQueue.global().async { [box = UncheckedBox(subscriber), count] in
                _ = box.value.receive(value)
                if value == count { box.value.receive(completion: .finished) }
            }
        }

        func cancel() {}
    }
}
