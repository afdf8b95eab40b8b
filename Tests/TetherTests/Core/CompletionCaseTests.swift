@testable import TetherCore
import Testing

/// `isFailure` and `SubjectOutcome`, which read and keep a completion's case without its run-time
/// type: each gives back the case (and the error) it was given, whatever the failure type.
@Suite struct CompletionCaseTests {
    struct Oops: Error, Equatable {}

    @Test func isFailureReadsTheCase() {
        #expect(Subscribers.Completion<Oops>.failure(Oops()).isFailure)
        #expect(!Subscribers.Completion<Oops>.finished.isFailure)
        #expect(!Subscribers.Completion<Never>.finished.isFailure)
        #expect(Subscribers.Completion<any Error>.failure(Oops()).isFailure)
    }

    @Test func anOutcomeGivesBackTheCompletionItWasMadeFrom() {
        let failed = SubjectOutcome(Subscribers.Completion<Oops>.failure(Oops()))
        #expect(failed.completion(Oops.self) == .failure(Oops()))
        #expect(SubjectOutcome(Subscribers.Completion<Oops>.finished).completion(Oops.self) == .finished)
        let finished: Subscribers.Completion<Never> = SubjectOutcome(Subscribers.Completion<Never>.finished)
            .completion()
        #expect(finished == .finished)
    }
}
