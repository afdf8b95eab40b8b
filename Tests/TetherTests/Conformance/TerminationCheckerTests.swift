import Tether
import TetherTesting
import XCTest

/// The kit's termination and demand-accounting options: conforming publishers pass, and each
/// option still catches the faults it is meant to.
final class TerminationCheckerTests: TetherTestCase {
    /// Short waits: a faulty publisher often never does what a check waits for.
    private let never = PublisherConformance.Options(termination: .never, timeout: 0.05)

    private func rules<P: Publisher>(
        _ options: PublisherConformance.Options, elements: Int = 5, _ make: @escaping () -> PublisherUnderTest<P>
    ) -> Set<String> {
        Set(PublisherConformance.verify(elements: elements, options: options, make: make).map(\.rule))
    }

    // MARK: termination: .never

    func testANeverCompletingPublisherPassesUnderNever() {
        XCTAssertEqual(
            PublisherConformance.verify(elements: 5, options: never) { EndlessBroadcaster.underTest(.none) }, [])
        XCTAssertEqual(
            PublisherConformance.verify(elements: 5, options: never) {
                FaultyPublisher(elements: 5, fault: .neverFinishes)
            },
            [])
    }

    func testSendingAfterCancelUnderNeverBreaksRules3_12And3_13() {
        let found = rules(never) { EndlessBroadcaster.underTest(.sendsAfterCancel) }
        XCTAssertTrue(found.contains("3.12"), "\(found)")
        XCTAssertTrue(found.contains("3.13"), "\(found)")
    }

    func testIgnoringDemandUnderNeverBreaksRule1_1() {
        XCTAssertTrue(rules(never) { EndlessBroadcaster.underTest(.ignoresDemand) }.contains("1.1"))
    }

    func testCompletingWhenDeclaredNeverToIsReported() {
        let found = rules(never) { .cold(FaultyPublisher(elements: 5, fault: .none)) }
        XCTAssertTrue(found.contains("1.2"), "\(found)")
    }

    func testNeverCompletingWithoutTheOptionBreaksRule1_5() {
        let options = PublisherConformance.Options(timeout: 0.05)
        XCTAssertTrue(rules(options) { EndlessBroadcaster.underTest(.none) }.contains("1.5"))
    }

    // MARK: termination: .fails

    func testFailPassesUnderFails() {
        let options = PublisherConformance.Options(termination: .fails, timeout: 0.05)
        XCTAssertEqual(
            PublisherConformance.verify(elements: 0, options: options) {
                Fail<Int, TestError>(error: TestError(id: 1))
            }, [])
    }

    func testFinishingWhenDeclaredToFailBreaksRule1_4() {
        let options = PublisherConformance.Options(termination: .fails, timeout: 0.05)
        let found = rules(options, elements: 0) { .cold(FaultyPublisher(elements: 0, fault: .none)) }
        XCTAssertTrue(found.contains("1.4"), "\(found)")
        XCTAssertTrue(found.contains("1.2"), "\(found)")
    }

    func testFailWithoutTheOptionIsReported() {
        let options = PublisherConformance.Options(timeout: 0.05)
        let found = Set(
            PublisherConformance.verify(elements: 0, options: options) { Fail<Int, TestError>(error: TestError(id: 1)) }
                .map(\.rule))
        XCTAssertTrue(found.contains("1.2"), "\(found)")
    }

    // MARK: demand: .uncountedOnceRequested

    private let uncounted = PublisherConformance.Options(
        termination: .never, demand: .uncountedOnceRequested, timeout: 0.05)

    func testObservableObjectPublisherNeedsTheDemandOption() {
        let counted = PublisherConformance.Options(termination: .never, timeout: 0.05)
        let found = rules(counted) { objectWillChangeUnderTest() }
        XCTAssertTrue(found.contains("1.1"), "\(found)")
        XCTAssertEqual(PublisherConformance.verify(elements: 5, options: uncounted) { objectWillChangeUnderTest() }, [])
    }

    func testDeliveringBeforeAnyRequestStillBreaksRule1_1() {
        XCTAssertTrue(rules(uncounted) { EndlessBroadcaster.underTest(.ignoresDemand) }.contains("1.1"))
    }

    func testCountingDemandWhenDeclaredNotToIsReported() {
        let found = rules(uncounted) { EndlessBroadcaster.underTest(.none) }
        XCTAssertTrue(found.contains("1.2"), "\(found)")
        XCTAssertTrue(found.contains("3.8"), "\(found)")
    }

    func testSendingAfterCancelWithUncountedDemandBreaksRule3_12() {
        XCTAssertTrue(rules(uncounted) { EndlessBroadcaster.underTest(.sendsAfterCancel) }.contains("3.12"))
    }
}
