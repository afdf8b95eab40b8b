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
}
