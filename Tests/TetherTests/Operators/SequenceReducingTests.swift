import Tether
import TetherTesting
import XCTest

/// Combine's eager fusions on `Publishers.Sequence` keep Combine's result types.
final class SequenceReducingTests: TetherTestCase {
    func testReducingFusionsReturnOneValuePublishers() {
        let numbers = [3, 1, 2, 2].publisher
        let sum: Result<Int, Never>.Publisher = numbers.reduce(0, +)
        let all: Result<[Int], Never>.Publisher = numbers.collect()
        let count: Result<Int, Never>.Publisher = numbers.count()
        let hasTwo: Result<Bool, Never>.Publisher = numbers.contains(2)
        let hasBig: Result<Bool, Never>.Publisher = numbers.contains { $0 > 5 }
        let smallest: Optional<Int>.Publisher = numbers.min { $0 < $1 }
        XCTAssertEqual(sum.result, .success(8))
        XCTAssertEqual(all.result, .success([3, 1, 2, 2]))
        XCTAssertEqual(count.result, .success(4))
        XCTAssertEqual(hasTwo.result, .success(true))
        XCTAssertEqual(hasBig.result, .success(false))
        XCTAssertEqual(smallest.output, 1)
    }

    func testAllSatisfyMaxAndFirstWhereAreOneValuePublishers() {
        let numbers = [3, 1, 4, 1, 5].publisher
        let allPositive: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 > 0 }
        let allSmall: Result<Bool, Never>.Publisher = numbers.allSatisfy { $0 < 5 }
        let emptyAll: Result<Bool, Never>.Publisher = [Int]().publisher.allSatisfy { _ in false }
        let largest: Optional<Int>.Publisher = numbers.max { $0 < $1 }
        let firstEven: Optional<Int>.Publisher = numbers.first { $0.isMultiple(of: 2) }
        let none: Optional<Int>.Publisher = numbers.first { $0 > 9 }
        XCTAssertEqual(allPositive.result, .success(true))
        XCTAssertEqual(allSmall.result, .success(false))
        XCTAssertEqual(emptyAll.result, .success(true))
        XCTAssertEqual(largest.output, 5)
        XCTAssertEqual(firstEven.output, 4)
        XCTAssertNil(none.output)
        let checked = numbers.tryAllSatisfy { value in
            if value == 4 { throw TestError(id: 4) }
            return true
        }
        XCTAssertThrowsError(try checked.result.get()) { XCTAssertEqual($0 as? TestError, TestError(id: 4)) }
        XCTAssertEqual(try [1, 2].publisher.tryAllSatisfy { $0 > 0 }.result.get(), true)
        let recorder = RecordingSubscriber<Int, Never>()
        numbers.max { $0 < $1 }.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testThrowingFusionsFailWithTheThrownError() {
        let numbers = [1, 2, 3].publisher
        let reduced = numbers.tryReduce(0) { total, next in
            if next == 3 { throw TestError(id: 3) }
            return total + next
        }
        XCTAssertThrowsError(try reduced.result.get()) { XCTAssertEqual($0 as? TestError, TestError(id: 3)) }
        let found = numbers.tryContains { $0 == 2 }
        XCTAssertEqual(try found.result.get(), true)
    }

    func testSequenceFusionsStaySequencePublishers() {
        let numbers = [1, 1, 2, 2, 3].publisher
        let scanned: Publishers.Sequence<[Int], Never> = numbers.scan(0, +)
        let unique: Publishers.Sequence<[Int], Never> = numbers.removeDuplicates()
        let replaced: Publishers.Sequence<[Int?], Never> = [1, nil, 3].publisher.replaceNil(with: 0)
        let failing: Publishers.Sequence<[Int], TestError> = numbers.setFailureType(to: TestError.self)
        XCTAssertEqual(scanned.sequence, [1, 2, 4, 6, 9])
        XCTAssertEqual(unique.sequence, [1, 2, 3])
        XCTAssertEqual(replaced.sequence, [1, 0, 3])
        let recorder = RecordingSubscriber<Int, TestError>()
        failing.subscribe(recorder)
        XCTAssertEqual(recorder.values, [1, 1, 2, 2, 3])
        XCTAssertEqual(recorder.completion, .finished)
    }
}

/// Combine's one-value publishers keep their kind when they declare a failure type.
final class SetFailureTypeFusionTests: TetherTestCase {
    func testJustAndResultDeclareAFailureAsAResultPublisher() {
        let just: Result<Int, TestError>.Publisher = Just(3).setFailureType(to: TestError.self)
        let result: Result<Int, TestError>.Publisher =
            Result<Int, Never>.Publisher(4).setFailureType(to: TestError.self)
        XCTAssertEqual(just.result, .success(3))
        XCTAssertEqual(result.result, .success(4))
    }
}
