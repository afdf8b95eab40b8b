// The chains of the Rx-shaped scenarios, and the tally their sinks add to: shared by the
// benchmarks (Scenarios.swift) and the profiling loop (Probes/ProfileTether), so that both run
// the same code.
//
// The helpers take any `P: Publisher`, so `map` and `filter` resolve to the operators of
// `Publisher` itself, not to `Publishers.Sequence`'s eager overloads (see Scenarios.swift).

#if TETHER
import Tether
#elseif OPENCOMBINE
import OpenCombine
#endif

/// Where sinks add up what they receive, so no delivery can be optimised away.
final class Tally: @unchecked Sendable {
    var sum = 0
    var count = 0
}

/// RxSwift's six `map(\.self).filter { _ in true }` pairs. Key-path `map` is not in Tether yet,
/// so both libraries run `map { $0 }`.
func sixMapFilterPairs<P: Publisher>(_ upstream: P, into tally: Tally) -> AnyCancellable
where P.Output == Int, P.Failure == Never {
    let identity: (Int) -> Int = { $0 }
    let always: (Int) -> Bool = { _ in true }
    return
        upstream
        .map(identity).filter(always)
        .map(identity).filter(always)
        .map(identity).filter(always)
        .map(identity).filter(always)
        .map(identity).filter(always)
        .map(identity).filter(always)
        .sink { tally.sum &+= $0 }
}

/// Five chained `flatMap { Just($0) }`, as RxSwift's FlatMaps benchmarks.
func fiveFlatMaps<P: Publisher>(_ upstream: P, into tally: Tally) -> AnyCancellable
where P.Output == Int, P.Failure == Never {
    upstream
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .sink { tally.sum &+= $0 }
}

/// Five chained `map { Just($0) }.switchToLatest()`, as RxSwift's FlatMapLatest benchmarks.
func fiveSwitches<P: Publisher>(_ upstream: P, into tally: Tally) -> AnyCancellable
where P.Output == Int, P.Failure == Never {
    upstream
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .sink { tally.sum &+= $0 }
}

#if TETHER
// OpenCombine 0.14.0 has no `combineLatest`.
/// A source combined with three `Just(1)`, then six more such levels, as RxSwift's
/// `CombineLatestCreating`: the source comes first at each level, so its value waits for the
/// three `Just`s and then goes out once.
func sevenCombineLatests<P: Publisher>(_ upstream: P, into tally: Tally) -> AnyCancellable
where P.Output == Int, P.Failure == Never {
    let one = Just(1)
    return
        upstream
        .combineLatest(one, one, one) { value, _, _, _ in value }
        .combineLatest(one, one, one) { value, _, _, _ in value }
        .combineLatest(one, one, one) { value, _, _, _ in value }
        .combineLatest(one, one, one) { value, _, _, _ in value }
        .combineLatest(one, one, one) { value, _, _, _ in value }
        .combineLatest(one, one, one) { value, _, _, _ in value }
        .combineLatest(one, one, one) { value, _, _, _ in value }
        .sink { tally.sum &+= $0 }
}

/// Three `Just(1)` combined with a source, then with six more such levels, as RxSwift's
/// `CombineLatestPumping`: the source comes last at each level, after the `Just`s have sent
/// their values, so every value it pumps goes through all seven levels to the sink.
func sevenCombineLatestsPumping<P: Publisher>(_ upstream: P, into tally: Tally) -> AnyCancellable
where P.Output == Int, P.Failure == Never {
    let one = Just(1)
    let first = one.combineLatest(one, one, upstream) { _, _, _, value in value }
    let second = one.combineLatest(one, one, first) { _, _, _, value in value }
    let third = one.combineLatest(one, one, second) { _, _, _, value in value }
    let fourth = one.combineLatest(one, one, third) { _, _, _, value in value }
    let fifth = one.combineLatest(one, one, fourth) { _, _, _, value in value }
    let sixth = one.combineLatest(one, one, fifth) { _, _, _, value in value }
    return one.combineLatest(one, one, sixth) { _, _, _, value in value }.sink { tally.sum &+= $0 }
}
#endif
