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

/// The fusions Combine declares on collections: the overload a plain call infers is the one
/// Combine picks, which the `let _: T = inferred` lines pin at compile time.
final class SequenceCollectionFusionTests: TetherTestCase {
    func testCountOfARandomAccessCollectionThatCannotFailIsAJust() {
        let counted = [4, 5, 6].publisher.count()
        let _: Just<Int> = counted
        let closed = (1...3).publisher.count()
        let _: Just<Int> = closed
        let unordered = Set([7, 8]).publisher.count()
        let _: Result<Int, Never>.Publisher = unordered
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).count()
        let _: Result<Int, TestError>.Publisher = failing
        let recorder = RecordingSubscriber<Int, Never>()
        counted.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .completion(.finished)])
        XCTAssertEqual(closed.output, 3)
        XCTAssertEqual(unordered.result, .success(2))
        XCTAssertEqual(failing.result, .success(2))
        var sunk: [Int] = []
        let cancellable = [1, 2, 3].publisher.count().sink { sunk.append($0) }
        XCTAssertEqual(sunk, [3])
        cancellable.cancel()
    }

    func testOutputAtPublishesTheElementAtAnIndexOrNothing() {
        let numbers = [10, 20, 30].publisher
        let third = numbers.output(at: 2)
        let _: Optional<Int>.Publisher = third
        XCTAssertEqual(numbers.output(at: 0).output, 10)
        XCTAssertNil(numbers.output(at: 3).output)
        XCTAssertNil(numbers.output(at: -1).output)
        let recorder = RecordingSubscriber<Int, Never>()
        third.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(30), .completion(.finished)])

        let word = "abc"
        let letter = word.publisher.output(at: word.index(after: word.startIndex))
        let _: Optional<Character>.Publisher = letter
        XCTAssertEqual(letter.output, "b")
        XCTAssertEqual(word.publisher.output(at: word.startIndex).output, "a")
        XCTAssertNil(word.publisher.output(at: word.endIndex).output)
    }

    func testOutputAtFallsBackToTheOperatorWhereCombineHasNoFusion() {
        let positional = (1...3).publisher.output(at: 1)
        let _: Publishers.Output<Publishers.Sequence<ClosedRange<Int>, Never>> = positional
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [1, 2]).output(at: 1)
        let _: Publishers.Output<Publishers.Sequence<[Int], TestError>> = failing
        let recorder = RecordingSubscriber<Int, Never>()
        positional.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .completion(.finished)])
    }

    func testOutputInSlicesTheCollection() {
        let numbers = [1, 2, 3, 4, 5].publisher
        let middle = numbers.output(in: 1..<3)
        let _: Publishers.Sequence<[Int], Never> = middle
        XCTAssertEqual(middle.sequence, [2, 3])
        XCTAssertEqual(numbers.output(in: 3..<5).sequence, [4, 5])
        XCTAssertEqual(numbers.output(in: 5..<5).sequence, [])
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [1, 2, 3]).output(in: 0..<2)
        let _: Publishers.Sequence<[Int], TestError> = failing
        XCTAssertEqual(failing.sequence, [1, 2])
        let word = "abcd"
        let inner = word.publisher.output(in: word.index(after: word.startIndex)..<word.index(before: word.endIndex))
        let _: Publishers.Sequence<[Character], Never> = inner
        XCTAssertEqual(inner.sequence, ["b", "c"])
        let recorder = RecordingSubscriber<Int, TestError>()
        failing.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testFirstLastWhereMinAndMaxAreOptionalPublishers() {
        let numbers = [3, 1, 4, 1, 5, 2].publisher
        let first = numbers.first()
        let _: Optional<Int>.Publisher = first
        var tried: [Int] = []
        let lastSmall = numbers.last {
            tried.append($0); return $0 < 3
        }
        let _: Optional<Int>.Publisher = lastSmall
        XCTAssertEqual(tried, [2])
        let smallest = numbers.min()
        let _: Optional<Int>.Publisher = smallest
        let largest = numbers.max()
        let _: Optional<Int>.Publisher = largest
        XCTAssertEqual(first.output, 3)
        XCTAssertEqual(lastSmall.output, 2)
        XCTAssertEqual(numbers.last { $0 > 3 }.output, 5)
        XCTAssertNil(numbers.last { $0 > 9 }.output)
        XCTAssertEqual(smallest.output, 1)
        XCTAssertEqual(largest.output, 5)
        let empty = [Int]().publisher
        XCTAssertNil(empty.first().output)
        XCTAssertNil(empty.min().output)
        XCTAssertNil(empty.max().output)
        let recorder = RecordingSubscriber<Int, Never>()
        smallest.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
        let _: Publishers.First<Publishers.Sequence<[Int], TestError>> = failing.first()
        let _: Publishers.Comparison<Publishers.Sequence<[Int], TestError>> = failing.min()
        let _: Publishers.LastWhere<Publishers.Sequence<[Int], TestError>> = failing.last { $0 > 1 }
    }
}

/// The fusions Combine declares on every sequence publisher that drop, keep or ignore elements.
final class SequenceSlicingFusionTests: TetherTestCase {
    func testDropWhileRunsThePredicateOnceAndPublishesTheRestLazily() {
        var calls = 0
        let rest = [1, 2, 5, 1].publisher.drop {
            calls += 1; return $0 < 3
        }
        let _: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = rest
        XCTAssertEqual(calls, 3)
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
        rest.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(5)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .value(1), .completion(.finished)])
        let again = RecordingSubscriber<Int, Never>()
        rest.subscribe(again)
        XCTAssertEqual(again.values, [5, 1])
        XCTAssertEqual(calls, 3)
    }

    func testPrefixWhileKeepsTheLeadingElementsRightAway() {
        var calls = 0
        let kept = [1, 2, 5, 1].publisher.prefix {
            calls += 1; return $0 < 3
        }
        let _: Publishers.Sequence<[Int], Never> = kept
        XCTAssertEqual(calls, 3)
        XCTAssertEqual(kept.sequence, [1, 2])
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [5, 1]).prefix { $0 < 3 }
        let _: Publishers.Sequence<[Int], TestError> = failing
        XCTAssertEqual(failing.sequence, [])
        let recorder = RecordingSubscriber<Int, TestError>()
        failing.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
    }

    func testDropFirstOfARangeStaysASequencePublisher() {
        let dropped = (1...3).publisher.dropFirst()
        let _: Publishers.Sequence<DropFirstSequence<ClosedRange<Int>>, Never> = dropped
        let recorder = RecordingSubscriber<Int, Never>()
        dropped.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(2), .value(3), .completion(.finished)])
    }

    func testIgnoreOutputIsAnEmptyThatNeverIteratesTheSequence() {
        let ignored = [1, 2, 3].publisher.ignoreOutput()
        let _: Empty<Int, Never> = ignored
        XCTAssertTrue(ignored.completeImmediately)
        let endless = (1...).publisher.ignoreOutput()
        let recorder = RecordingSubscriber<Int, Never>()
        endless.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.finished)])
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [1]).ignoreOutput()
        let _: Empty<Int, TestError> = failing
    }

    func testAppendAndPrependElementsToARangeReplaceableCollection() {
        let numbers = [2, 3].publisher
        let appended = numbers.append(4, 5)
        let _: Publishers.Sequence<[Int], Never> = appended
        let prepended = numbers.prepend(0, 1)
        let _: Publishers.Sequence<[Int], Never> = prepended
        let prependedSequence = numbers.prepend(stride(from: -1, through: 1, by: 1))
        let _: Publishers.Sequence<[Int], Never> = prependedSequence
        XCTAssertEqual(appended.sequence, [2, 3, 4, 5])
        XCTAssertEqual(prepended.sequence, [0, 1, 2, 3])
        XCTAssertEqual(prependedSequence.sequence, [-1, 0, 1, 2, 3])
        XCTAssertEqual(numbers.append().sequence, [2, 3])
        let word = "bc".publisher.prepend("a").append("d")
        let _: Publishers.Sequence<String, Never> = word
        XCTAssertEqual(word.sequence, "abcd")
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [1]).prepend(0).append(2)
        let _: Publishers.Sequence<[Int], TestError> = failing
        let recorder = RecordingSubscriber<Int, TestError>()
        failing.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .value(1), .value(2), .completion(.finished)])
        let range = (0..<2).publisher.append(2)
        let _: Publishers.Concatenate<Publishers.Sequence<Range<Int>, Never>, Publishers.Sequence<[Int], Never>> = range
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

    func testPrependBuildsANewCollectionAsCombineDoes() {
        let base = LoggingCollection([4, 5])
        let prepender = LoggingCollection([2, 3])
        let joined = base.publisher.prepend(prepender).sequence
        XCTAssertEqual(joined.storage, [2, 3, 4, 5])
        XCTAssertEqual(joined.calls, ["init()", "reserveCapacity", "append(contentsOf:)", "append(contentsOf:)"])
        XCTAssertEqual(base.calls, ["count", "underestimatedCount", "makeIterator"])
        XCTAssertEqual(prepender.calls, ["underestimatedCount", "underestimatedCount", "makeIterator"])

        let variadic = LoggingCollection([4, 5])
        XCTAssertEqual(variadic.publisher.prepend(1, 2, 3).sequence.storage, [1, 2, 3, 4, 5])
        XCTAssertEqual(variadic.calls, ["count", "underestimatedCount", "makeIterator"])
    }

    func testOutputInSlicesWithTheCollectionsOwnSubscript() {
        let numbers = LoggingCollection([1, 2, 3, 4, 5])
        XCTAssertEqual(numbers.publisher.output(in: 1..<3).sequence, [2, 3])
        XCTAssertEqual(
            numbers.calls,
            [
                "subscript(bounds)", "distance", "subscript(position)", "formIndex(after:)",
                "subscript(position)", "formIndex(after:)",
            ])
    }
}
