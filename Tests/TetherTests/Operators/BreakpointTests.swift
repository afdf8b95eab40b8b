import Tether
import TetherTesting
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class BreakpointTests: TetherTestCase {
    func testClosuresReturningFalsePassEverythingThrough() {
        var seen: [String] = []
        let recorder = RecordingSubscriber<Int, TestError>()
        let upstream = RecordingPublisher<Int, TestError>()
        upstream.breakpoint(
            receiveSubscription: { _ in
                seen.append("subscription"); return false
            },
            receiveOutput: {
                seen.append("value \($0)"); return false
            },
            receiveCompletion: {
                seen.append("completion \($0)"); return false
            }
        ).subscribe(recorder)
        upstream.send(1)
        upstream.send(completion: .finished)
        XCTAssertEqual(seen, ["subscription", "value 1", "completion finished"])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["RecordingSubscription"])
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        upstream.releaseSubscribers()
    }

    func testBreakpointOnErrorPassesValuesAndFinished() {
        let recorder = RecordingSubscriber<Int, TestError>()
        [1, 2].publisher.setFailureTypeForTest().breakpointOnError().subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testReturningTrueRaisesSIGTRAP() {
        let test = "TetherTests.BreakpointTests/testReturningTrueRaisesSIGTRAP"
        let onValue = ChildProcessTrap(test: test, id: "output").run {
            _ = Just(1).breakpoint(receiveOutput: { $0 == 1 }).sink { _ in }
        }
        let onError = ChildProcessTrap(test: test, id: "error").run {
            _ = Fail<Int, TestError>(error: TestError()).breakpointOnError().sink(
                receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        let onSubscription = ChildProcessTrap(test: test, id: "subscription").run {
            _ = Just(1).breakpoint(receiveSubscription: { _ in true }).sink { _ in }
        }
        // A handler that returns, as the Swift runtime's backtracer does, must not let the
        // process run on past the breakpoint.
        let underAHandler = ChildProcessTrap(test: test, id: "handled").run {
            signal(SIGTRAP) { _ in }
            _ = Just(1).breakpoint(receiveOutput: { $0 == 1 }).sink { _ in }
        }
        guard !ChildProcessTrap.isChildProcess else { return }
        #if os(Linux)
        XCTAssertEqual(underAHandler, .trapped(signal: SIGTRAP))
        XCTAssertEqual(onValue, .trapped(signal: SIGTRAP))
        XCTAssertEqual(onError, .trapped(signal: SIGTRAP))
        XCTAssertEqual(onSubscription, .trapped(signal: SIGTRAP))
        #endif
    }
}

extension Publishers.Sequence where Failure == Never {
    /// The same elements with `TestError` as the failure type.
    fileprivate func setFailureTypeForTest() -> Publishers.Sequence<Elements, TestError> {
        Publishers.Sequence(sequence: sequence)
    }
}
