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
}
