import Tether
import TetherExtras
import TetherTesting
import XCTest

final class ExtrasSharingRacesTests: TetherTestCase {
    /// A subscriber attaching while values are sent gets a gapless, duplicate-free run: the
    /// replayed values, then the live ones, ending with the last value sent.
    func testReplaySubscribeRacingSendsGetsAContiguousRun() {
        final class Box: @unchecked Sendable {
            let subject = ReplaySubject<Int, Never>(bufferSize: 3)
            let recorder = RecordingSubscriber<Int, Never>()
        }
        Race.run(
            rounds: 500,
            setup: { Box() },
            { box in
                for value in 0..<20 { box.subject.send(value) }
            },
            { box in box.subject.subscribe(box.recorder) },
            check: { box in
                let values = box.recorder.values
                XCTAssertEqual(values.last, 19)
                XCTAssertLessThanOrEqual(values.count, 20)
                if let first = values.first {
                    XCTAssertEqual(values, Array(first..<20))
                }
                box.subject.send(completion: .finished)
                XCTAssertEqual(box.recorder.completion, .finished)
            })
    }

    /// An `other` failure racing upstream values is delivered once, after any value in flight,
    /// and nothing follows it.
    func testWithLatestFromOtherFailureRacingValuesEndsTheStreamOnce() {
        final class Box: @unchecked Sendable {
            let upstream = PassthroughSubject<Int, TestError>()
            let other = CurrentValueSubject<Int, TestError>(0)
            let recorder = RecordingSubscriber<Int, TestError>()
            init() { upstream.withLatestFrom(other, resultSelector: +).subscribe(recorder) }
        }
        Race.run(
            rounds: 500,
            setup: { Box() },
            { box in
                for value in 0..<20 { box.upstream.send(value) }
            },
            { box in box.other.send(completion: .failure(TestError(id: 1))) },
            check: { box in
                let events = box.recorder.events
                XCTAssertEqual(events.last, .completion(.failure(TestError(id: 1))))
                XCTAssertEqual(box.recorder.values, Array(0..<box.recorder.values.count))
                box.upstream.send(completion: .finished)
                XCTAssertEqual(box.recorder.events.count, events.count)
            })
    }
}
