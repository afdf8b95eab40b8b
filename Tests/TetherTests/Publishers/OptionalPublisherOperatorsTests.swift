import Tether
import TetherTesting
import Testing

/// Combine's specialised operators of `Optional.Publisher`, with and without a value: each
/// returns the publisher type Combine declares (checked by the annotated `let`s) and delivers
/// what Combine's does.
@Suite(.noLiveSubscriptions)
struct OptionalPublisherOperatorsTests {
    typealias Sut = Optional<Int>.Publisher

    @Test func scanAndReduceRunTheClosureOnlyForAValue() {
        var calls = 0
        let plus: (Int, Int) -> Int = {
            calls += 1; return $0 + $1
        }
        let scanned: Optional<Int>.Publisher = Sut(4).scan(2, plus)
        let reduced: Optional<Int>.Publisher = Sut(4).reduce(2, plus)
        #expect(scanned == Sut(6))
        #expect(reduced == Sut(6))
        #expect(Sut(nil).scan(2, plus) == Sut(nil))
        #expect(Sut(nil).reduce(2, plus) == Sut(nil))
        #expect(calls == 2)
        #expect(history(of: reduced) == [".subscription", ".value(6)", ".completion(.finished)"])
    }

    @Test func removeDuplicatesReturnsTheSamePublisherWithoutCallingTheClosure() {
        let counter = CallCounter()
        let plain: Optional<Int>.Publisher = Sut(1000).removeDuplicates()
        let by: Optional<Int>.Publisher = Sut(44).removeDuplicates(by: counter.comparison(true))
        #expect(
            [plain, by, Sut(nil).removeDuplicates(), Sut(nil).removeDuplicates(by: counter.comparison(true))]
                == [Sut(1000), Sut(44), Sut(nil), Sut(nil)])
        #expect(counter.calls == 0)
    }

    @Test func replaceEmptyPublishesAJustOfTheValueOrTheReplacement() {
        let kept: Just<Int> = Sut(1).replaceEmpty(with: 100)
        let replaced: Just<Int> = Sut(nil).replaceEmpty(with: 100)
        #expect(kept == Just(1))
        #expect(replaced == Just(100))
        #expect(history(of: replaced) == [".subscription", ".value(100)", ".completion(.finished)"])
    }

    @Test func replaceErrorAndRetryReturnTheSamePublisher() {
        let replaced: Optional<Int>.Publisher = Sut(1).replaceError(with: 100)
        let retried: Optional<Int>.Publisher = Sut(nil).retry(100)
        #expect(replaced == Sut(1))
        #expect(retried == Sut(nil))
        #expect(Sut(nil).replaceError(with: 100) == Sut(nil))
        #expect(Sut(1).retry(100) == Sut(1))
    }

    @Test func collectPublishesAnEmptyArrayForNil() {
        let collected: Optional<[Int]>.Publisher = Sut(13).collect()
        #expect(collected == Optional.Publisher([13]))
        #expect(Sut(nil).collect() == Optional.Publisher([]))
        #expect(history(of: Sut(nil).collect()) == [".subscription", ".value([])", ".completion(.finished)"])
    }

    @Test func countPublishesNothingForNil() {
        let counted: Optional<Int>.Publisher = Sut(10_000).count()
        #expect(counted == Sut(1))
        #expect(Sut(nil).count() == Sut(nil))
        #expect(history(of: Sut(nil).count()) == [".subscription", ".completion(.finished)"])
    }

    @Test func ignoreOutputFinishesAtOnce() {
        let ignored: Empty<Double, Never> = Optional<Double>.Publisher(13.0).ignoreOutput()
        #expect(ignored.completeImmediately)
        #expect(history(of: ignored) == [".subscription", ".completion(.finished)"])
    }

    @Test func minAndMaxReturnTheSamePublisherWithoutCallingTheClosure() {
        let counter = CallCounter()
        let min: Optional<Int>.Publisher = Sut(112).min()
        let minBy: Optional<Int>.Publisher = Sut(1).min(by: counter.comparison(true))
        let max: Optional<Int>.Publisher = Sut(nil).max()
        let maxBy: Optional<Int>.Publisher = Sut(nil).max(by: counter.comparison(true))
        #expect([min, minBy, max, maxBy] == [Sut(112), Sut(1), Sut(nil), Sut(nil)])
        #expect(counter.calls == 0)
    }

    @Test func containsAndAllSatisfyPublishNothingForNil() {
        let counter = CallCounter()
        let absent: Optional<Bool>.Publisher = Sut(10).contains(12)
        let present: Optional<Bool>.Publisher = Sut(10).contains(10)
        let whereAnswer: Optional<Bool>.Publisher = Sut(64).contains(where: counter.predicate(true))
        let satisfied: Optional<Bool>.Publisher = Sut(1).allSatisfy(counter.predicate(false))
        #expect([absent, present, whereAnswer, satisfied] == [.init(false), .init(true), .init(true), .init(false)])
        #expect(Sut(nil).contains(10) == Optional.Publisher(nil))
        #expect(Sut(nil).contains(where: counter.predicate(true)) == Optional.Publisher(nil))
        #expect(Sut(nil).allSatisfy(counter.predicate(true)) == Optional.Publisher(nil))
        #expect(counter.calls == 2)
        #expect(history(of: Sut(nil).allSatisfy { _ in true }) == [".subscription", ".completion(.finished)"])
    }

    @Test func dropFirstAndPrefixKeepTheValueOnlyForTheRightCounts() {
        let dropped: Optional<Int>.Publisher = Sut(10_000).dropFirst()
        let droppedNone: Optional<Int>.Publisher = Sut(10_000).dropFirst(0)
        let prefixNone: Optional<Int>.Publisher = Sut(98).prefix(0)
        let prefixOne: Optional<Int>.Publisher = Sut(98).prefix(1)
        #expect(
            [dropped, droppedNone, Sut(10_000).dropFirst(100), Sut(nil).dropFirst()]
                == [Sut(nil), Sut(10_000), Sut(nil), Sut(nil)])
        #expect(
            [prefixNone, prefixOne, Sut(98).prefix(1000), Sut(nil).prefix(1)]
                == [Sut(nil), Sut(98), Sut(98), Sut(nil)])
        #expect(history(of: prefixOne) == [".subscription", ".value(98)", ".completion(.finished)"])
    }

    @Test func predicateSelectionsRunTheClosureOnlyForAValue() {
        var calls = 0
        let even: (Int) -> Bool = {
            calls += 1; return $0.isMultiple(of: 2)
        }
        let prefixed: Optional<Int>.Publisher = Sut(98).prefix(while: even)
        let first: Optional<Int>.Publisher = Sut(99).first(where: even)
        let last: Optional<Int>.Publisher = Sut(42).last(where: even)
        #expect([prefixed, first, last] == [Sut(98), Sut(nil), Sut(42)])
        #expect(
            [Sut(nil).prefix(while: even), Sut(nil).first(where: even), Sut(nil).last(where: even)]
                == [Sut(nil), Sut(nil), Sut(nil)])
        #expect(calls == 3)
    }

    @Test func firstAndLastReturnTheSamePublisher() {
        let first: Optional<Int>.Publisher = Sut(3).first()
        let last: Optional<Int>.Publisher = Sut(nil).last()
        #expect(first == Sut(3))
        #expect(last == Sut(nil))
    }

    @Test func outputInRangePublishesWhenTheRangeContainsZero() {
        #expect(Sut(12).output(in: 0..<10) == Sut(12))
        #expect(Sut(12).output(in: 0..<(Int.max - 2)) == Sut(12))
        #expect(Sut(nil).output(in: 0..<10) == Sut(nil))
        #expect(Sut(12).output(in: 0..<0) == Sut(nil))
        #expect(Sut(12).output(in: 0...0) == Sut(12))
        #expect(Sut(12).output(in: 1..<10) == Sut(nil))
        #expect(Sut(12).output(in: ...0) == Sut(12))
        #expect(Sut(12).output(in: ..<0) == Sut(nil))
        #expect(Sut(12).output(in: ..<1) == Sut(12))
    }

    @Test func negativeCountsAndOutOfBoundsRangesTrap() async {
        await #expect(processExitsWith: .failure) { _ = Optional<Int>.Publisher(1).dropFirst(-1) }
        await #expect(processExitsWith: .failure) { _ = Optional<Int>.Publisher(1).prefix(-1) }
        await #expect(processExitsWith: .failure) { _ = Optional<Int>.Publisher(1).output(at: -1) }
        await #expect(processExitsWith: .failure) { _ = Optional<Int>.Publisher(1).output(in: -1...4) }
        await #expect(processExitsWith: .failure) { _ = Optional<Int>.Publisher(1).output(in: 0..<(Int.max - 1)) }
    }
}
