import Tether
import TetherExtras
import TetherTesting
import XCTest

final class LedgerRacesTests: TetherTestCase {
    /// Subscribing and cancelling sinks on a subject while another thread sends into it: the
    /// debug ledger names each new chain without reading the subject's state, every value sent
    /// reaches the long-lived sink, and nothing is left alive.
    func testSinkAndCancelWhileAnotherThreadSendsLeavesTheLedgerConsistent() {
        final class Box: @unchecked Sendable {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = RecordingSubscriber<Int, Never>()
            init() { subject.subscribe(recorder) }
        }
        Race.run(
            rounds: 500,
            setup: { Box() },
            { box in
                for value in 0..<50 { box.subject.send(value) }
            },
            { box in
                for _ in 0..<10 {
                    let cancellable = box.subject.map { $0 + 1 }.sink { _ in }
                    if SubscriptionLedger.isEnabled {
                        let chains = SubscriptionLedger.snapshot().map(\.chain)
                        XCTAssertTrue(
                            chains.contains { $0.hasPrefix("Sink") && $0.hasSuffix("PassthroughSubject") },
                            "\(chains)")
                    }
                    cancellable.cancel()
                }
            },
            check: { box in
                XCTAssertEqual(box.recorder.values, Array(0..<50))
                box.subject.send(completion: .finished)
            })
    }

    /// The same with a `CurrentValueSubject`, whose sends write its value under its lock while the
    /// other thread's `sink` names the new chain.
    func testSinkAndCancelOnACurrentValueSubjectWhileAnotherThreadSetsItsValue() {
        final class Box: @unchecked Sendable {
            let subject = CurrentValueSubject<String, Never>("")
        }
        Race.run(
            rounds: 500,
            setup: { Box() },
            { box in
                for value in 0..<50 { box.subject.value = String(repeating: "v", count: 32 + value) }
            },
            { box in
                for _ in 0..<10 {
                    box.subject.map(\.count).sink { _ in }.cancel()
                }
            },
            check: { box in
                XCTAssertEqual(box.subject.value.count, 81)
            })
    }
}
