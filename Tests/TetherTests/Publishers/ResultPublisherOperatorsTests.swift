import Tether
import TetherTesting
import Testing

/// Combine's specialised operators of `Result.Publisher`, for a success and for a failure: each
/// returns the publisher type Combine declares (checked by the annotated `let`s) and delivers
/// what Combine's does.
@Suite(.noLiveSubscriptions)
struct ResultPublisherOperatorsTests {
    typealias Sut = Result<Int, TestError>.Publisher

    static let success = Sut(4)
    static let failure = Sut(TestError(id: 1))
    static let failed = ".completion(.failure(TestError(1)))"

    @Test func mapErrorTransformsOnlyTheFailure() {
        let mapped: Result<Int, Oops>.Publisher = Self.success.mapError { _ in Oops() }
        #expect(mapped.result == .success(4))
        #expect(Self.failure.mapError { _ in Oops() }.result == .failure(Oops()))
        #expect(
            history(of: Self.failure.mapError { _ in Oops() }) == [".subscription", ".completion(.failure(Oops))"])
    }

    @Test func scanAndReducePassTheFailureThrough() {
        let scanned: Result<Int, TestError>.Publisher = Self.success.scan(2, +)
        let reduced: Result<Int, TestError>.Publisher = Self.success.reduce(2, +)
        #expect(scanned.result == .success(6))
        #expect(reduced.result == .success(6))
        #expect(Self.failure.scan(2, +).result == .failure(TestError(id: 1)))
        #expect(history(of: Self.failure.reduce(2, +)) == [".subscription", Self.failed])
    }

    @Test func tryScanAndTryReduceFailWithTheThrownOrTheOriginalError() {
        let scanned: Result<Int, any Error>.Publisher = Self.success.tryScan(2, *)
        let reduced: Result<Int, any Error>.Publisher = Self.success.tryReduce(2, *)
        #expect(history(of: scanned) == [".subscription", ".value(8)", ".completion(.finished)"])
        #expect(history(of: reduced) == [".subscription", ".value(8)", ".completion(.finished)"])
        let throwing: (Int, Int) throws -> Int = { _, _ in throw Oops() }
        #expect(history(of: Self.success.tryScan(2, throwing)) == [".subscription", ".completion(.failure(Oops))"])
        #expect(history(of: Self.success.tryReduce(2, throwing)) == [".subscription", ".completion(.failure(Oops))"])
        #expect(history(of: Self.failure.tryScan(2, throwing)) == [".subscription", Self.failed])
        #expect(history(of: Self.failure.tryReduce(2, throwing)) == [".subscription", Self.failed])
    }

    @Test func identityOperatorsReturnTheSameResultWithoutCallingTheClosure() {
        let counter = CallCounter()
        let same: [Result<Int, TestError>.Publisher] = [
            Self.success.removeDuplicates(), Self.success.removeDuplicates(by: counter.comparison(true)),
            Self.success.replaceEmpty(with: 100), Self.success.retry(100), Self.success.last(),
            Self.success.min(), Self.success.min(by: counter.comparison(true)),
            Self.success.max(), Self.success.max(by: counter.comparison(true)),
        ]
        #expect(same == Array(repeating: Self.success, count: 9))
        let failures: [Result<Int, TestError>.Publisher] = [
            Self.failure.removeDuplicates(), Self.failure.replaceEmpty(with: 100), Self.failure.retry(100),
            Self.failure.last(), Self.failure.min(by: counter.comparison(true)), Self.failure.max(),
        ]
        #expect(failures == Array(repeating: Self.failure, count: 6))
        #expect(counter.calls == 0)
        #expect(history(of: Self.failure.retry(3)) == [".subscription", Self.failed])
    }

    @Test func throwingComparisonsCompareTheValueWithItselfOnlyForASuccess() {
        let counter = CallCounter()
        let min: Result<Int, any Error>.Publisher = Self.success.tryMin(by: counter.comparison(true))
        let max: Result<Int, any Error>.Publisher = Self.success.tryMax(by: counter.comparison(false))
        let distinct: Result<Int, any Error>.Publisher = Self.success.tryRemoveDuplicates(by: counter.comparison(true))
        for publisher in [min, max, distinct] {
            #expect(history(of: publisher) == [".subscription", ".value(4)", ".completion(.finished)"])
        }
        #expect(counter.calls == 3)
        let thrown = [
            Self.success.tryMin(by: counter.throwingComparison()),
            Self.success.tryMax(by: counter.throwingComparison()),
            Self.success.tryRemoveDuplicates(by: counter.throwingComparison()),
        ]
        for publisher in thrown {
            #expect(history(of: publisher) == [".subscription", ".completion(.failure(Oops))"])
        }
        #expect(counter.calls == 6)
        let failed = [
            Self.failure.tryMin(by: counter.throwingComparison()),
            Self.failure.tryMax(by: counter.throwingComparison()),
            Self.failure.tryRemoveDuplicates(by: counter.throwingComparison()),
        ]
        for publisher in failed {
            #expect(history(of: publisher) == [".subscription", Self.failed])
        }
        #expect(counter.calls == 6)
    }

    @Test func replaceErrorPublishesTheReplacementForAFailure() {
        let kept: Result<Int, Never>.Publisher = Self.success.replaceError(with: 100)
        let replaced: Result<Int, Never>.Publisher = Self.failure.replaceError(with: 100)
        #expect(kept.result == .success(4))
        #expect(replaced.result == .success(100))
        #expect(history(of: replaced) == [".subscription", ".value(100)", ".completion(.finished)"])
    }

    @Test func collectAndCountMapTheSuccess() {
        let collected: Result<[Int], TestError>.Publisher = Self.success.collect()
        let counted: Result<Int, TestError>.Publisher = Self.success.count()
        #expect(collected.result == .success([4]))
        #expect(counted.result == .success(1))
        #expect(Self.failure.collect().result == .failure(TestError(id: 1)))
        #expect(history(of: Self.failure.count()) == [".subscription", Self.failed])
    }

    @Test func ignoreOutputFinishesAtOnceEvenForAFailure() {
        let ignored: Empty<Int, TestError> = Self.failure.ignoreOutput()
        #expect(ignored.completeImmediately)
        #expect(history(of: ignored) == [".subscription", ".completion(.finished)"])
        #expect(history(of: Self.success.ignoreOutput()) == [".subscription", ".completion(.finished)"])
    }

    @Test func containsAndAllSatisfyPassTheFailureThrough() {
        let counter = CallCounter()
        let absent: Result<Bool, TestError>.Publisher = Self.success.contains(12)
        let present: Result<Bool, TestError>.Publisher = Self.success.contains(4)
        let whereAnswer: Result<Bool, TestError>.Publisher = Self.success.contains(where: counter.predicate(true))
        let satisfied: Result<Bool, TestError>.Publisher = Self.success.allSatisfy(counter.predicate(false))
        #expect(
            [absent, present, whereAnswer, satisfied].map(\.result) == [
                .success(false), .success(true), .success(true), .success(false),
            ])
        #expect(Self.failure.contains(4).result == .failure(TestError(id: 1)))
        #expect(Self.failure.contains(where: counter.predicate(true)).result == .failure(TestError(id: 1)))
        #expect(history(of: Self.failure.allSatisfy(counter.predicate(true))) == [".subscription", Self.failed])
        #expect(counter.calls == 2)
    }

    @Test func tryContainsAndTryAllSatisfyFailWithTheThrownOrTheOriginalError() {
        let counter = CallCounter()
        let contains: Result<Bool, any Error>.Publisher = Self.success.tryContains(where: counter.predicate(true))
        let satisfies: Result<Bool, any Error>.Publisher = Self.success.tryAllSatisfy(counter.predicate(false))
        #expect(history(of: contains) == [".subscription", ".value(true)", ".completion(.finished)"])
        #expect(history(of: satisfies) == [".subscription", ".value(false)", ".completion(.finished)"])
        #expect(
            history(of: Self.success.tryContains(where: counter.throwingPredicate()))
                == [".subscription", ".completion(.failure(Oops))"])
        #expect(history(of: Self.failure.tryAllSatisfy(counter.throwingPredicate())) == [".subscription", Self.failed])
        #expect(counter.calls == 3)
    }
}
