import Tether
import TetherTesting
import XCTest

/// An object for an operator's closures to capture, so that a test can see them released.
final class ReleaseProbe: @unchecked Sendable {
    let id: Int

    init(id: Int = 0) { self.id = id }
}

/// Runs `body` with a fresh upstream subject, a ``ReleaseProbe`` for the operator's closures and a
/// recorder, then asserts (with TetherTesting's `assertDeallocated`) that the subject, the capture
/// and the recorder are all deallocated: `body` must end the stream, by cancelling or completing.
func assertReleases<Input, Output, Failure: Error>(
    _ input: Input.Type, _ output: Output.Type, _ failure: Failure.Type,
    file: StaticString = #filePath, line: UInt = #line,
    _ body: (PassthroughSubject<Input, Failure>, ReleaseProbe, RecordingSubscriber<Output, Failure>) -> Void
) {
    assertDeallocated(RecordingSubscriber<Output, Failure>(), file: file, line: line) { recorder in
        assertDeallocated(ReleaseProbe(), file: file, line: line) { capture in
            assertDeallocated(PassthroughSubject<Input, Failure>(), file: file, line: line) { subject in
                body(subject, capture, recorder)
            }
        }
    }
}
