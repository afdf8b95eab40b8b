import Synchronization
import Tether
import TetherTesting
import XCTest

/// Races on a subject's `sink` (one `SubjectSink`): sends, completions and cancels on two
/// threads never overlap in the closures, never deliver after the completion, and release the
/// closures exactly once, after the last delivery.
final class SubjectSinkRacesTests: TetherTestCase {
    /// What the closures saw, and whether two calls ever overlapped.
    private final class Record: @unchecked Sendable {
        private let events = Mutex<[String]>([])
        private let inside = Atomic<Bool>(false)
        private let overlapCount = Atomic<Int>(0)

        var all: [String] { events.withLock { $0 } }
        var overlaps: Int { overlapCount.load(ordering: .sequentiallyConsistent) }

        func note(_ event: String) {
            if inside.exchange(true, ordering: .sequentiallyConsistent) {
                overlapCount.add(1, ordering: .sequentiallyConsistent)
            }
            events.withLock { $0.append(event) }
            inside.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Captured by the closures: gone once they are released.
    private final class Captured: @unchecked Sendable {}

    private struct Round: @unchecked Sendable {
        let subject: PassthroughSubject<Int, Never>
        let record: Record
        let cancellable: AnyCancellable
        weak var captured: Captured?
    }

    private func round() -> Round {
        let subject = PassthroughSubject<Int, Never>()
        let record = Record()
        let captured = Captured()
        let cancellable = subject.sink(
            receiveCompletion: { _ in withExtendedLifetime(captured) { record.note("finished") } },
            receiveValue: { value in withExtendedLifetime(captured) { record.note("\(value)") } })
        return Round(subject: subject, record: record, cancellable: cancellable, captured: captured)
    }

    func testSendRacingSendDeliversBothWithoutOverlap() {
        Race.run(
            setup: round,
            { $0.subject.send(1) },
            { $0.subject.send(2) },
            check: { round in
                XCTAssertEqual(round.record.all.sorted(), ["1", "2"])
                XCTAssertEqual(round.record.overlaps, 0)
                round.cancellable.cancel()
                XCTAssertNil(round.captured)
            })
    }

    func testSendRacingCancelReleasesTheClosuresOnceBothAreDone() {
        Race.run(
            setup: round,
            { $0.subject.send(1) },
            { $0.cancellable.cancel() },
            check: { round in
                XCTAssertTrue(["[]", "[\"1\"]"].contains("\(round.record.all)"), "\(round.record.all)")
                XCTAssertNil(round.captured, "the closures outlived the cancel and the delivery")
                round.subject.send(2)
                XCTAssertFalse(round.record.all.contains("2"))
            })
    }

    func testSendRacingCompletionDeliversNothingAfterTheCompletion() {
        Race.run(
            setup: round,
            { $0.subject.send(1) },
            { $0.subject.send(completion: .finished) },
            check: { round in
                let events = round.record.all
                XCTAssertTrue([["finished"], ["1", "finished"]].contains(events), "\(events)")
                XCTAssertEqual(round.record.overlaps, 0)
                XCTAssertNil(round.captured)
                round.cancellable.cancel()
            })
    }

    func testCancelRacingCompletionEndsOnce() {
        Race.run(
            setup: round,
            { $0.cancellable.cancel() },
            { $0.subject.send(completion: .finished) },
            check: { round in
                XCTAssertTrue([[], ["finished"]].contains(round.record.all), "\(round.record.all)")
                XCTAssertNil(round.captured)
            })
    }

    func testACurrentValueSinkRacingASendSeesTheValuesInOrder() {
        Race.run(
            setup: { (CurrentValueSubject<Int, Never>(0), Record(), Kept()) },
            { subject, record, kept in kept.cancellable = subject.sink { record.note("\($0)") } },
            { subject, _, _ in subject.send(1) },
            check: { _, record, kept in
                XCTAssertTrue([["0", "1"], ["1"]].contains(record.all), "\(record.all)")
                XCTAssertEqual(record.overlaps, 0)
                kept.cancellable?.cancel()
            })
    }

    /// The cancellable the first side makes, for the check to cancel.
    private final class Kept: @unchecked Sendable {
        var cancellable: AnyCancellable?
    }
}
