import Foundation
import Tether
import TetherTesting
import XCTest

final class ExtrasOperatorRacesTests: TetherTestCase {
    /// An upstream value racing the active inner's finish either is dropped or makes the next
    /// inner, never both and never two inners at once; the stream then finishes once.
    func testFlatMapFirstValueRacingTheInnersFinishMakesAtMostOneInner() {
        final class Box: @unchecked Sendable {
            let upstream = PassthroughSubject<Int, Never>()
            let first = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            init() {
                upstream.flatMapFirst { [first] value in
                    value == 0 ? first.eraseToAnyPublisher() : Just(value).eraseToAnyPublisher()
                }
                .subscribe(recorder)
                upstream.send(0)
                first.send(-1)
            }
        }
        Race.run(
            setup: { Box() },
            { box in box.upstream.send(1) },
            { box in box.first.send(completion: .finished) },
            check: { box in
                let values = box.recorder.values
                XCTAssertTrue(values == [-1] || values == [-1, 1], "\(values)")
                box.upstream.send(completion: .finished)
                XCTAssertEqual(box.recorder.completion, .finished)
                XCTAssertEqual(box.recorder.events.count, values.count + 2)
            })
    }

    /// An upstream failure racing the inner's values is delivered once, after any value in flight,
    /// and nothing follows it.
    func testFlatMapFirstUpstreamFailureRacingInnerValuesEndsTheStreamOnce() {
        final class Box: @unchecked Sendable {
            let upstream = PassthroughSubject<Int, TestError>()
            let inner = PassthroughSubject<Int, TestError>()
            let recorder = RecordingSubscriber<Int, TestError>()
            init() {
                upstream.flatMapFirst { [inner] _ in inner }.subscribe(recorder)
                upstream.send(0)
            }
        }
        Race.run(
            setup: { Box() },
            { box in
                for value in 0..<20 { box.inner.send(value) }
            },
            { box in box.upstream.send(completion: .failure(TestError(id: 1))) },
            check: { box in
                let events = box.recorder.events
                XCTAssertEqual(events.last, .completion(.failure(TestError(id: 1))))
                XCTAssertEqual(box.recorder.values, Array(0..<box.recorder.values.count))
                box.inner.send(completion: .finished)
                XCTAssertEqual(box.recorder.events.count, events.count)
            })
    }
}

extension ExtrasOperatorRacesTests {
    /// Two competitors sending at once: exactly one wins, and only its values go downstream.
    func testAmbCompetitorsSendingAtOnceHaveExactlyOneWinner() {
        final class Box: @unchecked Sendable {
            let first = PassthroughSubject<Int, Never>()
            let second = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            init() { first.amb(second).subscribe(recorder) }
        }
        Race.run(
            setup: { Box() },
            { box in
                for value in 0..<10 { box.first.send(value) }
            },
            { box in
                for value in 100..<110 { box.second.send(value) }
            },
            check: { box in
                let values = box.recorder.values
                XCTAssertTrue(values == Array(0..<10) || values == Array(100..<110), "\(values)")
                box.first.send(completion: .finished)
                box.second.send(completion: .finished)
                XCTAssertEqual(box.recorder.completion, .finished)
            })
    }
}

extension ExtrasOperatorRacesTests {
    /// Two publishers of a zipped collection sending at once: every array pairs the same
    /// positions, in order, and none is lost.
    func testZipCollectionPublishersSendingAtOnceStayPaired() {
        final class Box: @unchecked Sendable {
            let subjects = [PassthroughSubject<Int, Never>(), PassthroughSubject<Int, Never>()]
            let recorder = RecordingSubscriber<[Int], Never>()
            init() { subjects.zip().subscribe(recorder) }
        }
        Race.run(
            setup: { Box() },
            { box in
                for value in 0..<10 { box.subjects[0].send(value) }
            },
            { box in
                for value in 0..<10 { box.subjects[1].send(value) }
            },
            check: { box in
                XCTAssertEqual(box.recorder.values, (0..<10).map { [$0, $0] })
                box.subjects[0].send(completion: .finished)
                XCTAssertEqual(box.recorder.completion, .finished)
            })
    }
}

extension ExtrasOperatorRacesTests {
    /// A cancel racing the scheduled resubscription: either nothing is resubscribed, or the
    /// resubscription is cancelled; either way nothing reaches the subscriber afterwards and
    /// nothing is left alive.
    func testDelayedRetryCancelRacingTheResubscriptionLeavesNothingSubscribed() {
        final class Box: @unchecked Sendable {
            let upstream = PassthroughSubject<Int, TestError>()
            let scheduler = DispatchQueue.test
            let recorder = RecordingSubscriber<Int, TestError>()
            init() {
                let attempts = AtomicCounter()
                Deferred { [upstream] in
                    attempts.increment() == 1
                        ? Fail(error: TestError()).eraseToAnyPublisher() : upstream.eraseToAnyPublisher()
                }
                .retry(1, delay: .seconds(1), scheduler: scheduler).subscribe(recorder)
            }
        }
        Race.run(
            setup: { Box() },
            { box in box.scheduler.advance(by: .seconds(1)) },
            { box in box.recorder.cancel() },
            check: { box in
                box.upstream.send(1)
                box.upstream.send(completion: .finished)
                XCTAssertEqual(box.recorder.events, [.subscription])
            })
    }
}

extension ExtrasOperatorRacesTests {
    /// A cancel racing the switch to the fallback: the fallback is either never subscribed or
    /// cancelled, and nothing reaches the subscriber afterwards.
    func testSwitchIfEmptyCancelRacingTheSwitchLeavesNothingSubscribed() {
        final class Box: @unchecked Sendable {
            let upstream = PassthroughSubject<Int, Never>()
            let fallback = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            init() { upstream.switchIfEmpty(fallback).subscribe(recorder) }
        }
        Race.run(
            setup: { Box() },
            { box in box.upstream.send(completion: .finished) },
            { box in box.recorder.cancel() },
            check: { box in
                box.fallback.send(1)
                box.fallback.send(completion: .finished)
                XCTAssertEqual(box.recorder.events, [.subscription])
            })
    }
}

extension ExtrasOperatorRacesTests {
    /// A request racing the scheduled re-read: the re-read value is delivered exactly once, by
    /// whichever side finds both it and demand, never overlapping the other.
    func testObservedRequestRacingTheReReadDeliversTheNewValueOnce() {
        final class Box: @unchecked Sendable {
            let model = ObservedModel()
            let scheduler = DispatchQueue.test
            let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
            init() {
                model.publisher(for: \.count, scheduler: scheduler).subscribe(recorder)
                model.count = 1
            }
        }
        Race.run(
            setup: { Box() },
            { box in box.scheduler.advance() },
            { box in box.recorder.request(.max(5)) },
            check: { box in
                XCTAssertEqual(box.recorder.values, [0, 1])
                box.recorder.cancel()
            })
    }
}

extension ExtrasOperatorRacesTests {
    /// The inclusive ending value racing a cancel: the subscriber sees a prefix of the values,
    /// at most one completion, and nothing after either.
    func testTakeUntilInclusiveEndRacingCancelEndsOnce() {
        final class Box: @unchecked Sendable {
            let upstream = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            init() { upstream.take(until: { $0 == 5 }, inclusive: true).subscribe(recorder) }
        }
        Race.run(
            setup: { Box() },
            { box in
                for value in 0..<10 { box.upstream.send(value) }
            },
            { box in box.recorder.cancel() },
            check: { box in
                let values = box.recorder.values
                XCTAssertEqual(values, Array(0..<values.count))
                XCTAssertLessThanOrEqual(values.count, 6)
                if let completion = box.recorder.completion {
                    XCTAssertEqual(completion, .finished)
                    XCTAssertEqual(values.count, 6)
                }
                box.upstream.send(completion: .finished)
                XCTAssertEqual(box.recorder.values.count, values.count)
            })
    }
}

extension ExtrasOperatorRacesTests {
    /// A cancel racing the winner's values: the subscriber sees a prefix of them and nothing
    /// after the cancel returns, and everything is released.
    func testAmbCancelRacingTheWinnersValuesStopsDelivery() {
        final class Box: @unchecked Sendable {
            let first = PassthroughSubject<Int, Never>()
            let second = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            init() { first.amb(second).subscribe(recorder) }
        }
        Race.run(
            setup: { Box() },
            { box in
                for value in 0..<20 { box.first.send(value) }
            },
            { box in box.recorder.cancel() },
            check: { box in
                let values = box.recorder.values
                XCTAssertEqual(values, Array(0..<values.count))
                box.first.send(99)
                box.first.send(completion: .finished)
                XCTAssertEqual(box.recorder.values, values)
                XCTAssertNil(box.recorder.completion)
            })
    }
}
