import Tether
import TetherTesting
import Testing

/// Combine's specialised operators of `Just`: each returns the value publisher Combine declares
/// (checked by the annotated `let`s, which only compile with that type) and delivers what
/// Combine's does.
@Suite(.noLiveSubscriptions)
struct JustOperatorsTests {
    @Test func mappingOperatorsReturnResultPublishers() {
        let mapError: Result<Int, Oops>.Publisher = Just(42).mapError(constant(Oops()))
        #expect(mapError.result == .success(42))
        #expect(history(of: mapError) == [".subscription", ".value(42)", ".completion(.finished)"])

        let scan: Result<Int, Never>.Publisher = Just(4).scan(2, +)
        #expect(history(of: scan) == [".subscription", ".value(6)", ".completion(.finished)"])

        let tryScan: Result<Int, any Error>.Publisher = Just(4).tryScan(2, *)
        #expect(history(of: tryScan) == [".subscription", ".value(8)", ".completion(.finished)"])
        let throwingScan = Just(4).tryScan(2) { _, _ -> Int in throw Oops() }
        #expect(history(of: throwingScan) == [".subscription", ".completion(.failure(Oops))"])
    }

    @Test func removeDuplicatesReturnsTheSameJustWithoutCallingTheClosure() {
        let counter = CallCounter()
        let plain: Just<Int> = Just(1000).removeDuplicates()
        let by: Just<Int> = Just(44).removeDuplicates(by: counter.comparison(true))
        #expect(plain == Just(1000))
        #expect(by == Just(44))
        #expect(counter.calls == 0)
        #expect(history(of: by) == [".subscription", ".value(44)", ".completion(.finished)"])
    }

    @Test func tryRemoveDuplicatesComparesTheValueWithItselfOnce() {
        let counter = CallCounter()
        let kept: Result<Int, any Error>.Publisher = Just(44).tryRemoveDuplicates(by: counter.comparison(true))
        #expect(history(of: kept) == [".subscription", ".value(44)", ".completion(.finished)"])
        let thrown = Just(44).tryRemoveDuplicates(by: counter.throwingComparison())
        #expect(history(of: thrown) == [".subscription", ".completion(.failure(Oops))"])
        #expect(counter.calls == 2)
    }

    @Test func replacingOperatorsReturnTheSameJust() {
        let empty: Just<Int> = Just(1).replaceEmpty(with: 100)
        let error: Just<Int> = Just(1).replaceError(with: 100)
        let retried: Just<Int> = Just(1).retry(Int.max)
        #expect([empty, error, retried] == [Just(1), Just(1), Just(1)])
        #expect(history(of: error) == [".subscription", ".value(1)", ".completion(.finished)"])
    }

    @Test func collectAndCountPublishJusts() {
        let collected: Just<[Int]> = Just(13).collect()
        let counted: Just<Int> = Just(10_000).count()
        #expect(collected == Just([13]))
        #expect(counted == Just(1))
        #expect(history(of: collected) == [".subscription", ".value([13])", ".completion(.finished)"])
    }

    @Test func ignoreOutputFinishesAtOnce() {
        let ignored: Empty<Double, Never> = Just(13.0).ignoreOutput()
        #expect(ignored.completeImmediately)
        #expect(history(of: ignored) == [".subscription", ".completion(.finished)"])
    }

    @Test func reduceAndTryReducePublishResults() {
        let reduced: Result<Int, Never>.Publisher = Just(4).reduce(2, +)
        #expect(reduced.result == .success(6))
        let tried: Result<Int, any Error>.Publisher = Just(4).tryReduce(2, *)
        #expect(history(of: tried) == [".subscription", ".value(8)", ".completion(.finished)"])
        let thrown = Just(4).tryReduce(2) { _, _ -> Int in throw Oops() }
        #expect(history(of: thrown) == [".subscription", ".completion(.failure(Oops))"])
    }

    @Test func minAndMaxReturnTheSameJustWithoutCallingTheClosure() {
        let counter = CallCounter()
        let min: Just<Int> = Just(112).min()
        let minBy: Just<Int> = Just(1).min(by: counter.comparison(true))
        let max: Just<Int> = Just(341).max()
        let maxBy: Just<Int> = Just(2).max(by: counter.comparison(false))
        #expect([min, minBy, max, maxBy] == [Just(112), Just(1), Just(341), Just(2)])
        #expect(counter.calls == 0)
    }

    @Test func containsAndAllSatisfyPublishJustBools() {
        let absent: Just<Bool> = Just(10).contains(12)
        let present: Just<Bool> = Just(10).contains(10)
        let whereTrue: Just<Bool> = Just(64).contains { $0 < 100 }
        let whereFalse: Just<Bool> = Just(14).contains { $0 > 100 }
        let satisfied: Just<Bool> = Just(1).allSatisfy { $0 > 0 }
        let unsatisfied: Just<Bool> = Just(0).allSatisfy { $0 > 0 }
        #expect(
            [absent, present, whereTrue, whereFalse, satisfied, unsatisfied]
                == [Just(false), Just(true), Just(true), Just(false), Just(true), Just(false)])
        #expect(history(of: present) == [".subscription", ".value(true)", ".completion(.finished)"])
    }

    @Test func tryContainsAndTryAllSatisfyPublishResults() {
        let contains: Result<Bool, any Error>.Publisher = Just(1).tryContains { $0 > 0 }
        let satisfies: Result<Bool, any Error>.Publisher = Just(0).tryAllSatisfy { $0 > 0 }
        #expect(history(of: contains) == [".subscription", ".value(true)", ".completion(.finished)"])
        #expect(history(of: satisfies) == [".subscription", ".value(false)", ".completion(.finished)"])
        let counter = CallCounter()
        #expect(
            history(of: Just(1).tryContains(where: counter.throwingPredicate()))
                == [".subscription", ".completion(.failure(Oops))"])
        #expect(
            history(of: Just(1).tryAllSatisfy(counter.throwingPredicate()))
                == [".subscription", ".completion(.failure(Oops))"])
        #expect(counter.calls == 2)
    }

    @Test func prependOfASequencePublishesTheElementsThenTheOutput() {
        let prepended: Publishers.Sequence<[Int], Never> = Just(5).prepend(1...4)
        #expect(prepended == Publishers.Sequence(sequence: [1, 2, 3, 4, 5]))
        #expect(
            history(of: prepended)
                == [
                    ".subscription", ".value(1)", ".value(2)", ".value(3)", ".value(4)", ".value(5)",
                    ".completion(.finished)",
                ])
    }

    @Test func prependOfASequenceCountsItAndCopiesItOnce() {
        let elements = LoggingCollection([1, 2])
        #expect(Just(3).prepend(elements).sequence == [1, 2, 3])
        #expect(elements.calls == ["underestimatedCount", "underestimatedCount", "makeIterator"])
    }

    @Test func prefixWhileKeepsTheOutputOnlyWhenTheClosureAccepts() {
        let kept: Optional<Int>.Publisher = Just(1).prefix { $0 > 0 }
        let dropped: Optional<Int>.Publisher = Just(1).prefix { $0 < 0 }
        #expect(kept == Optional.Publisher(1))
        #expect(dropped == Optional.Publisher(nil))
        #expect(history(of: dropped) == [".subscription", ".completion(.finished)"])
    }

    @Test func firstAndLastReturnTheSameJust() {
        let first: Just<String> = Just("f").first()
        let last: Just<String> = Just("g").last()
        #expect(first == Just("f"))
        #expect(last == Just("g"))
    }

    @Test func firstAndLastWhereKeepTheOutputOnlyWhenItMatches() {
        let firstMatch: Optional<Int>.Publisher = Just(-13).first { $0 != 42 }
        let firstMiss: Optional<Int>.Publisher = Just(42).first { $0 != 42 }
        let lastMatch: Optional<Int>.Publisher = Just(1).last { $0 > 0 }
        let lastMiss: Optional<Int>.Publisher = Just(1).last { $0 < 0 }
        #expect([firstMatch, firstMiss, lastMatch, lastMiss] == [.init(-13), .init(nil), .init(1), .init(nil)])
        #expect(history(of: lastMatch) == [".subscription", ".value(1)", ".completion(.finished)"])
    }

    @Test func outputInRangePublishesWhenTheRangeStartsAtZero() {
        // Combine publishes for an empty range that starts at zero, and publishes nothing
        // (without trapping) for a range that starts below zero.
        #expect(Just(12).output(in: 0..<10) == Optional.Publisher(12))
        #expect(Just(12).output(in: 0..<0) == Optional.Publisher(12))
        #expect(Just(12).output(in: 0...0) == Optional.Publisher(12))
        #expect(Just(12).output(in: 0..<Int.max) == Optional.Publisher(12))
        #expect(Just(12).output(in: -10..<10) == Optional.Publisher(nil))
        #expect(Just(12).output(in: (-10)...) == Optional.Publisher(nil))
        #expect(Just(12).output(in: -10...10) == Optional.Publisher(nil))
        #expect(Just(12).output(in: -10 ..< -5) == Optional.Publisher(nil))
        #expect(Just(12).output(in: 1..<10) == Optional.Publisher(nil))
    }

    @Test func negativeCountsTrap() async {
        await #expect(processExitsWith: .failure) { _ = Just(1).dropFirst(-1) }
        await #expect(processExitsWith: .failure) { _ = Just(1).prefix(-1) }
        await #expect(processExitsWith: .failure) { _ = Just(1).output(at: -1) }
    }
}
