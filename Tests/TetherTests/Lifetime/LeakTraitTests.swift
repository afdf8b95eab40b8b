import Tether
import TetherExtras
import TetherTesting
import Testing

/// The Swift Testing forms of the leak checks.
@Suite(.noLiveSubscriptions)
struct LeakTraitTests {
    @Test func finishedAndCancelledSubscriptionsPassTheTrait() {
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { _ in }
        subject.send(1)
        cancellable.cancel()
        _ = Just(1).sink { _ in }
    }

    @Test(.enabled(if: SubscriptionLedger.isEnabled, "reads the debug-only subscription ledger"))
    func aKeptSubscriptionIsRecordedAsAnIssue() async {
        let subject = PassthroughSubject<Int, Never>()
        var kept: AnyCancellable?
        await withKnownIssue {
            await expectNoLiveSubscriptions(timeout: 0.01) { kept = subject.sink { _ in } }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Sink ← PassthroughSubject") }
        }
        kept = nil
        #expect(kept == nil)
    }

    @Test func expectDeallocatedRecordsTheCycle() {
        final class Cyclic {
            var cancellable: AnyCancellable?
            var last = 0
        }
        let subject = PassthroughSubject<Int, Never>()
        withKnownIssue {
            expectDeallocated(Cyclic(), timeout: 0.01) { object in
                object.cancellable = subject.sink { object.last = $0 }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Cyclic was not deallocated") }
        }
        // The survivor's cycle ends with the stream.
        subject.send(completion: .finished)
    }
}
