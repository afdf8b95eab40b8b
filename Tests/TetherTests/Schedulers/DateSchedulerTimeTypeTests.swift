import Foundation
import Tether
import TetherTesting
import XCTest

// With one shared time type these overloads would be invalid redeclarations: that they compile,
// and that each call picks its own, pins the two types (and their strides) as distinct.
private func owner(of _: RunLoop.SchedulerTimeType) -> String { "RunLoop" }
private func owner(of _: OperationQueue.SchedulerTimeType) -> String { "OperationQueue" }
private func owner(of _: RunLoop.SchedulerTimeType.Stride) -> String { "RunLoop.Stride" }
private func owner(of _: OperationQueue.SchedulerTimeType.Stride) -> String { "OperationQueue.Stride" }

extension RunLoop.SchedulerTimeType {
    fileprivate var extendedOwner: String { "RunLoop" }
}

extension OperationQueue.SchedulerTimeType {
    fileprivate var extendedOwner: String { "OperationQueue" }
}

final class DateSchedulerTimeTypeTests: TetherTestCase {
    func testRunLoopAndOperationQueueTimeTypesAreDistinct() {
        XCTAssertNotEqual(
            ObjectIdentifier(RunLoop.SchedulerTimeType.self), ObjectIdentifier(OperationQueue.SchedulerTimeType.self))
        XCTAssertNotEqual(
            ObjectIdentifier(RunLoop.SchedulerTimeType.Stride.self),
            ObjectIdentifier(OperationQueue.SchedulerTimeType.Stride.self))
        let date = Date(timeIntervalSince1970: 10)
        XCTAssertEqual(owner(of: RunLoop.SchedulerTimeType(date)), "RunLoop")
        XCTAssertEqual(owner(of: OperationQueue.SchedulerTimeType(date)), "OperationQueue")
        XCTAssertEqual(owner(of: RunLoop.main.now), "RunLoop")
        XCTAssertEqual(owner(of: OperationQueue.main.now), "OperationQueue")
        XCTAssertEqual(owner(of: RunLoop.main.minimumTolerance), "RunLoop.Stride")
        XCTAssertEqual(owner(of: OperationQueue.main.minimumTolerance), "OperationQueue.Stride")
        XCTAssertEqual(RunLoop.SchedulerTimeType(date).extendedOwner, "RunLoop")
        XCTAssertEqual(OperationQueue.SchedulerTimeType(date).extendedOwner, "OperationQueue")
    }

    func testTestSchedulersUseTheirOwnSchedulersTimeTypes() {
        XCTAssertEqual(owner(of: RunLoop.test.now), "RunLoop")
        XCTAssertEqual(owner(of: OperationQueue.test.now), "OperationQueue")
    }

    func testRunLoopStridesCountSeconds() {
        checkStridesCountSeconds(RunLoop.SchedulerTimeType.Stride.self, seconds: \.timeInterval)
    }

    func testOperationQueueStridesCountSeconds() {
        checkStridesCountSeconds(OperationQueue.SchedulerTimeType.Stride.self, seconds: \.timeInterval)
    }

    func testRunLoopStrideArithmetic() {
        checkStrideArithmetic(RunLoop.SchedulerTimeType.Stride.self, seconds: \.timeInterval)
    }

    func testOperationQueueStrideArithmetic() {
        checkStrideArithmetic(OperationQueue.SchedulerTimeType.Stride.self, seconds: \.timeInterval)
    }

    func testRunLoopTimeDistanceAndAdvance() {
        checkDistanceAndAdvance(RunLoop.SchedulerTimeType.init, date: \.date)
    }

    func testOperationQueueTimeDistanceAndAdvance() {
        checkDistanceAndAdvance(OperationQueue.SchedulerTimeType.init, date: \.date)
    }

    func testRunLoopTimeAndStrideSurviveACodableRoundTrip() throws {
        try checkCodableRoundTrip(RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 1_234.5)))
        try checkCodableRoundTrip(RunLoop.SchedulerTimeType.Stride.milliseconds(-750))
    }

    func testOperationQueueTimeAndStrideSurviveACodableRoundTrip() throws {
        try checkCodableRoundTrip(OperationQueue.SchedulerTimeType(Date(timeIntervalSince1970: 1_234.5)))
        try checkCodableRoundTrip(OperationQueue.SchedulerTimeType.Stride.seconds(42.25))
    }

    func testTimesWithTheSameDateAreEqualAndHashAlike() {
        let date = Date(timeIntervalSince1970: 99)
        XCTAssertEqual(Set([RunLoop.SchedulerTimeType(date), RunLoop.SchedulerTimeType(date)]).count, 1)
        XCTAssertEqual(Set([OperationQueue.SchedulerTimeType(date), OperationQueue.SchedulerTimeType(date)]).count, 1)
        XCTAssertLessThan(RunLoop.SchedulerTimeType(date), RunLoop.SchedulerTimeType(date.addingTimeInterval(0.001)))
    }

    // MARK: - Checks both time types share, written once

    private func checkStridesCountSeconds<
        S: SchedulerTimeIntervalConvertible & SignedNumeric & ExpressibleByFloatLiteral
    >(
        _: S.Type, seconds: KeyPath<S, TimeInterval>, file: StaticString = #filePath, line: UInt = #line
    ) {
        let integerLiteral: S = 2
        let floatLiteral: S = 0.25
        XCTAssertEqual(integerLiteral[keyPath: seconds], 2, file: file, line: line)
        XCTAssertEqual(floatLiteral[keyPath: seconds], 0.25, file: file, line: line)
        XCTAssertEqual(S.seconds(3)[keyPath: seconds], 3, file: file, line: line)
        XCTAssertEqual(S.seconds(1.5)[keyPath: seconds], 1.5, file: file, line: line)
        XCTAssertEqual(S.milliseconds(250)[keyPath: seconds], 0.25, file: file, line: line)
        XCTAssertEqual(S.microseconds(1_500)[keyPath: seconds], 0.0015, accuracy: 1e-12, file: file, line: line)
        XCTAssertEqual(S.nanoseconds(2_000_000)[keyPath: seconds], 0.002, accuracy: 1e-12, file: file, line: line)
        XCTAssertEqual(S(exactly: 5)?[keyPath: seconds], 5, file: file, line: line)
        XCTAssertNil(S(exactly: UInt64.max), "2^64 - 1 has no exact Double", file: file, line: line)
        XCTAssertEqual(S.zero[keyPath: seconds], 0, file: file, line: line)
    }

    private func checkStrideArithmetic<S: SignedNumeric & Comparable & ExpressibleByFloatLiteral>(
        _: S.Type, seconds: KeyPath<S, TimeInterval>, file: StaticString = #filePath, line: UInt = #line
    ) where S.Magnitude == TimeInterval {
        let two: S = 2
        let half: S = 0.5
        XCTAssertEqual((two + half)[keyPath: seconds], 2.5, file: file, line: line)
        XCTAssertEqual((half - two)[keyPath: seconds], -1.5, file: file, line: line)
        XCTAssertEqual((two * half)[keyPath: seconds], 1, file: file, line: line)
        XCTAssertEqual((-two)[keyPath: seconds], -2, file: file, line: line)
        XCTAssertEqual(
            (half - two).magnitude, -1.5, "magnitude is the signed number of seconds", file: file, line: line)
        var running = two
        running += half
        running *= two
        running -= half
        XCTAssertEqual(running[keyPath: seconds], 4.5, file: file, line: line)
        XCTAssertLessThan(half, two, file: file, line: line)
        XCTAssertLessThan(-two, half, file: file, line: line)
    }

    private func checkDistanceAndAdvance<T: Strideable>(
        _ make: (Date) -> T, date: KeyPath<T, Date>, file: StaticString = #filePath, line: UInt = #line
    ) where T.Stride: SchedulerTimeIntervalConvertible & ExpressibleByFloatLiteral {
        let start = make(Date(timeIntervalSince1970: 100))
        let later = make(Date(timeIntervalSince1970: 150))
        XCTAssertEqual(start.distance(to: later), .seconds(50), file: file, line: line)
        XCTAssertEqual(later.distance(to: start), .seconds(-50), file: file, line: line)
        let advanced = start.advanced(by: .milliseconds(2_500))
        XCTAssertEqual(advanced[keyPath: date], Date(timeIntervalSince1970: 102.5), file: file, line: line)
        let back = start.advanced(by: -0.5)
        XCTAssertEqual(back[keyPath: date], Date(timeIntervalSince1970: 99.5), file: file, line: line)
        let there = start.advanced(by: start.distance(to: later))
        XCTAssertEqual(there[keyPath: date], later[keyPath: date], file: file, line: line)
    }

    private func checkCodableRoundTrip<V: Codable & Equatable>(
        _ value: V, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let data = try JSONEncoder().encode(value)
        XCTAssertEqual(try JSONDecoder().decode(V.self, from: data), value, file: file, line: line)
    }
}
