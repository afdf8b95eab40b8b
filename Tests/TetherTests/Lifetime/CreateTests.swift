import Foundation
import Tether
import TetherTesting
import XCTest

final class CreateTests: TetherTestCase {
    func testBuffersUntilDemandThenDeliversInOrderAndCompletesAfterTheBuffer() {
        let cleanups = AtomicCounter()
        let publisher = AnyPublisher<Int, TestError>.create { subscriber in
            for value in 1...3 { subscriber.send(value) }
            subscriber.send(completion: .finished)
            subscriber.send(4)
            return AnyCancellable { cleanups.increment() }
        }
        let recorder = RecordingSubscriber<Int, TestError>(demand: .max(1))
        publisher.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        XCTAssertEqual(cleanups.value, 1, "the cleanup runs once the source has finished")
        recorder.request(.max(2))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
        XCTAssertEqual(cleanups.value, 1)
    }

    func testDemandReturnedFromReceiveIsHonoured() {
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            for value in 0..<5 { subscriber.send(value) }
            return AnyCancellable {}
        }
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { $0 < 2 ? .max(1) : .none })
        publisher.subscribe(recorder)
        XCTAssertEqual(recorder.values, [0, 1, 2])
        recorder.cancel()
    }

    func testCancelRunsTheCleanupOnceAndStopsForwarding() {
        let cleanups = AtomicCounter()
        var kept: AnyPublisher<Int, Never>.Emitter?
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            kept = subscriber
            return AnyCancellable { cleanups.increment() }
        }
        var received: [Int] = []
        let cancellable = publisher.sink { received.append($0) }
        kept?.send(1)
        cancellable.cancel()
        cancellable.cancel()
        kept?.send(2)
        kept?.send(completion: .finished)
        XCTAssertEqual(received, [1])
        XCTAssertEqual(cleanups.value, 1)
        XCTAssertEqual(kept?.isFinished, true)
        kept = nil
    }

    func testCancelInsideTheBodyRunsTheCleanupWhenTheBodyReturns() {
        let cleanups = AtomicCounter()
        var cancellable: AnyCancellable?
        let publisher = AnyPublisher<Int, Never>.create { subscriber in
            subscriber.send(1)
            cancellable?.cancel()
            subscriber.send(2)
            return AnyCancellable { cleanups.increment() }
        }
        var received: [Int] = []
        let recorder = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { received.append($0) })
        cancellable = AnyCancellable(recorder)
        publisher.subscribe(recorder)
        XCTAssertEqual(received, [1])
        XCTAssertEqual(cleanups.value, 1)
        cancellable = nil
    }

    func testEachSubscriberRunsTheBody() {
        let starts = AtomicCounter()
        let publisher = AnyPublisher<Void, Never>.create { subscriber in
            starts.increment()
            subscriber.send()
            subscriber.send(completion: .finished)
            return AnyCancellable {}
        }
        let first = RecordingSubscriber<Void, Never>()
        let second = RecordingSubscriber<Void, Never>()
        publisher.subscribe(first)
        publisher.subscribe(second)
        XCTAssertEqual(starts.value, 2)
        XCTAssertEqual(second.events.count, 3)
    }

    func testCancelRacingSendDeliversNothingAfterCancelReturnsAndCleansUpOnce() {
        final class Round: @unchecked Sendable {
            let cleanups = AtomicCounter()
            var emitter: AnyPublisher<Int, Never>.Emitter?
            let afterCancel = AtomicCounter()
            let cancelled = AtomicCounter()
            var cancellable: AnyCancellable?
        }
        Race.run(
            setup: { () -> Round in
                let round = Round()
                let publisher = AnyPublisher<Int, Never>.create { subscriber in
                    round.emitter = subscriber
                    return AnyCancellable { round.cleanups.increment() }
                }
                round.cancellable = publisher.sink { _ in
                    if round.cancelled.value == 1 { round.afterCancel.increment() }
                }
                return round
            },
            { round in
                round.cancellable?.cancel()
                round.cancelled.increment()
            },
            { round in
                for value in 0..<4 { round.emitter?.send(value) }
                round.emitter?.send(completion: .finished)
            },
            check: { round in
                XCTAssertEqual(round.cleanups.value, 1)
                // At most the value already in flight when cancel() was called.
                XCTAssertLessThanOrEqual(round.afterCancel.value, 1)
                round.cancellable = nil
                round.emitter = nil
            })
    }

    func testRequestRacingSendDeliversEveryValueInOrder() {
        final class Round: @unchecked Sendable {
            var emitter: AnyPublisher<Int, Never>.Emitter?
            let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        }
        Race.run(
            setup: { () -> Round in
                let round = Round()
                AnyPublisher<Int, Never>.create { subscriber in
                    round.emitter = subscriber
                    return AnyCancellable {}
                }.subscribe(round.recorder)
                return round
            },
            { round in
                for _ in 0..<4 { round.recorder.request(.max(1)) }
            },
            { round in
                for value in 0..<4 { round.emitter?.send(value) }
                round.emitter?.send(completion: .finished)
            },
            check: { round in
                XCTAssertEqual(round.recorder.values, [0, 1, 2, 3])
                XCTAssertEqual(round.recorder.completion.map { "\($0)" }, "finished")
                round.emitter = nil
            })
    }
}
