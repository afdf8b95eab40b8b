// The profiling loop: one scenario, run N times in a plain loop, for `Probes/count.sh` to count
// the instructions and the atomic read-modify-writes one operation costs under callgrind.
//
// Usage: ProfileTether SCENARIO N. Each scenario does its setup, then N operations, then its
// teardown; count.sh runs it at two N and divides the difference, so the setup and teardown
// cancel out. Wall-clock figures on a shared machine move by tens of percent between runs;
// these counts move by a few instructions, so a change is checked here first and in the
// benchmark table after.
//
// The API boundaries (`derived(_:stages:)`, `lookup(_:)`, `request(_:through:)`, `decoded(_:)`,
// `parsed(_:)` and the models) and the Rx-shaped chains (`sixMapFilterPairs`, `fiveFlatMaps`,
// `fiveSwitches`, `sevenCombineLatests`, `Tally`) are the benchmarks' own,
// Benchmarks/Shared/AppBoundaries.swift and Chains.swift, linked here.
import Foundation
import Tether

@inline(never)
func plusOne(_ value: Int) -> Int { value &+ 1 }

@inline(never)
func sendAll(_ subject: PassthroughSubject<Int, Never>, _ count: Int) {
    for value in 0..<count { subject.send(value) }
}

/// Sends `count` values through `make(subject)` into a sink: one operation is one send.
@inline(never)
func sends(
    _ count: Int, _ tally: Tally, through make: (AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never>
) {
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = make(subject.eraseToAnyPublisher()).sink { tally.sum &+= $0 }
    sendAll(subject, count)
    cancellable.cancel()
}

/// Sends `count` values through the failable `make(subject)`, its failure replaced where it is
/// watched, into a sink: one operation is one send.
@inline(never)
func failableSends(
    _ count: Int, _ tally: Tally, through make: (AnyPublisher<Int, Error>) -> AnyPublisher<Int, Error>
) {
    let subject = PassthroughSubject<Int, Error>()
    let cancellable = make(subject.eraseToAnyPublisher()).replaceError(with: 0).sink { tally.sum &+= $0 }
    for value in 0..<count { subject.send(value) }
    cancellable.cancel()
}

/// Sends `count` values through `timed(subject, scheduler)` into a sink on the benchmarks'
/// virtual-time scheduler, moving the clock `advance` ticks after each send: one operation is one
/// value delivered.
@inline(never)
func virtualTimeSends<Timed: Publisher>(
    _ count: Int, _ tally: Tally, advance: VirtualTimeScheduler.Stride,
    through timed: (PassthroughSubject<Int, Never>, VirtualTimeScheduler) -> Timed
) where Timed.Output == Int, Timed.Failure == Never {
    let scheduler = VirtualTimeScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = timed(subject, scheduler).sink { tally.sum &+= $0 }
    for value in 0..<count {
        subject.send(value)
        scheduler.advance(by: advance)
    }
    cancellable.cancel()
}

/// Runs `body` in a task and blocks until it returns.
func waitFor(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

/// The scenarios, by name: what one operation is.
let scenarios: KeyValuePairs<String, (Int, Tally) -> Void> = [
    // `Just(x).map(f).sink { }`, made and cancelled.
    "just-map-sink": { count, tally in
        for value in 0..<count {
            Just(value).map(plusOne).sink { tally.sum &+= $0 }.cancel()
        }
    },
    // A subject made, a sink attached, one send, the sink cancelled (`Rx PublishSubjectCreating`).
    "subject-create": { count, tally in
        for _ in 0..<count {
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.sink { tally.sum &+= $0 }
            subject.send(1)
            cancellable.cancel()
        }
    },
    // `subject.sink { }` then `cancel()` on one subject.
    "subject-sink-cancel": { count, _ in
        let subject = PassthroughSubject<Int, Never>()
        subject.sink { _ in }.cancel()
        for _ in 0..<count { subject.sink { _ in }.cancel() }
    },
    // One send to one sink, and to two.
    "send-1-sink": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { tally.sum &+= $0 }
        sendAll(subject, count)
        cancellable.cancel()
    },
    "send-2-sinks": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let first = subject.sink { tally.sum &+= $0 }
        let second = subject.sink { tally.sum &+= $0 }
        sendAll(subject, count)
        first.cancel()
        second.cancel()
    },
    // One send through `map` from a `CurrentValueSubject`.
    "current-value-map": { count, tally in
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = subject.map(plusOne).sink { tally.sum &+= $0 }
        for value in 0..<count { subject.send(value) }
        cancellable.cancel()
    },
    // One set of a `@Published` property watched by a sink.
    "published-set": { count, tally in
        let settings = Settings()
        let cancellable = settings.$level.sink { tally.sum &+= $0 }
        for value in 0..<count { settings.level = value }
        cancellable.cancel()
    },
    // One pair sent to two erased subjects zipped, and one send to each of two merged: the
    // `App: zip` and `App: merge` rows' shapes.
    "erased-zip-pair": { count, tally in
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        let cancellable = pairs(a.eraseToAnyPublisher(), b.eraseToAnyPublisher()).sink { tally.sum &+= $0 }
        for value in 0..<count {
            a.send(value)
            b.send(value)
        }
        cancellable.cancel()
    },
    "erased-merge-send": { count, tally in
        let a = PassthroughSubject<Int, Never>(), b = PassthroughSubject<Int, Never>()
        let cancellable = events(a.eraseToAnyPublisher(), b.eraseToAnyPublisher()).sink { tally.sum &+= $0 }
        for value in 0..<count { (value & 1 == 0 ? a : b).send(value) }
        cancellable.cancel()
    },
    // One send through an erased subject, one erased `map` stage, into a sink.
    "erased-1-stage-send": { count, tally in
        sends(count, tally) { derived($0, stages: 1) }
    },
    // One send through twelve stages behind an erasure point, and without any erasure.
    "erased-12-stages-send": { count, tally in sends(count, tally) { derived($0, stages: 12) } },
    "plain-12-stages-send": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = plainStages(subject) { tally.sum &+= $0 }
        sendAll(subject, count)
        cancellable.cancel()
    },
    // Twelve erased stages subscribed into a `Set` and let go of.
    "erased-12-stages-subscribe": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let chain = derived(subject.eraseToAnyPublisher(), stages: 12)
        var cancellables = Set<AnyCancellable>()
        for _ in 0..<count {
            chain.sink { tally.sum &+= $0 }.store(in: &cancellables)
            cancellables.removeAll()
        }
    },
    // One element of a `Sequence` publisher through twelve erased stages.
    "erased-12-stages-sequence": { count, tally in
        derived((0..<count).publisher.eraseToAnyPublisher(), stages: 12).sink { tally.sum &+= $0 }.cancel()
    },
    // One send through the failable erased stream, its failure replaced where it is watched.
    "erased-throwing-send": { count, tally in failableSends(count, tally, through: decoded) },
    // One send through the failable erased stream parsed by steps that may skip.
    "erased-parsed-send": { count, tally in failableSends(count, tally, through: parsed) },
    // Six `map`/`filter` pairs made and cancelled, and one element pumped through them.
    "map-filter-create": { count, tally in
        for _ in 0..<count { sixMapFilterPairs(CollectionOfOne(1).publisher, into: tally).cancel() }
    },
    "map-filter-pump": { count, tally in
        sixMapFilterPairs(repeatElement(1, count: count).publisher, into: tally).cancel()
    },
    // Five `flatMap` levels made and cancelled, and one element pumped through them.
    "flat-map-create": { count, tally in
        for _ in 0..<count { fiveFlatMaps(CollectionOfOne(1).publisher, into: tally).cancel() }
    },
    "flat-map-pump": { count, tally in
        fiveFlatMaps(repeatElement(1, count: count).publisher, into: tally).cancel()
    },
    // Five `switchToLatest` levels made and cancelled, and one element pumped through them.
    "switch-create": { count, tally in
        for _ in 0..<count { fiveSwitches(CollectionOfOne(1).publisher, into: tally).cancel() }
    },
    "switch-pump": { count, tally in
        fiveSwitches(repeatElement(1, count: count).publisher, into: tally).cancel()
    },
    // Seven `combineLatest` levels, each with three `Just(1)`, made and cancelled with one element
    // through them; and one element pumped through the seven levels (the Rx rows' shapes).
    "combine-latest-create": { count, tally in
        for _ in 0..<count { sevenCombineLatests(CollectionOfOne(1).publisher, into: tally).cancel() }
    },
    "combine-latest-pump": { count, tally in
        sevenCombineLatestsPumping(repeatElement(1, count: count).publisher, into: tally).cancel()
    },
    // One send of an erased subject through seven nested, erased `combineLatest` levels.
    "erased-7-combine-latest-send": { count, tally in
        sends(count, tally) { nestedCombineLatest($0, levels: 7) }
    },
    // One element of a `Sequence` publisher taken by `for await` over `.values`.
    "values-next": { count, tally in
        waitFor {
            for await value in (0..<count).publisher.values { tally.sum &+= value }
        }
    },
    // One send of an erased subject flat-mapped to an erased lookup, to a `Future` fulfilled as
    // it is made, to the lookup's `first()`, and to a `Deferred { Future }` fulfilled after the
    // send.
    "flat-map-erased-just": { count, tally in
        sends(count, tally) { results(for: $0) }
    },
    "flat-map-future": { count, tally in
        sends(count, tally) { fetched(for: $0) }
    },
    "flat-map-first": { count, tally in
        sends(count, tally) { firstResults(for: $0) }
    },
    "flat-map-catch": { count, tally in
        sends(count, tally) { resultsOrFallback(for: $0) }
    },
    // A `@Published` property set while `assign(to: &$property)` derives another from it.
    "assign-to-published": { count, tally in
        let model = SearchModel()
        for value in 0..<count { model.query = value }
        tally.sum &+= model.resultCount
    },
    // Ids fetched one at a time through erased futures: one operation is one id.
    "flat-map-one-by-one": { count, tally in
        fetchedOneByOne(Array(0..<count)).sink { tally.sum &+= $0 }.cancel()
    },
    // An erased subject behind `prepend` of a cached value: one operation is one send.
    "prepend-send": { count, tally in
        sends(count, tally) { cachedThenLive($0, cached: 0) }
    },
    // An erased subject mapped and assigned to an object's property: one operation is one send.
    "assign-send": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let label = Label()
        let cancellable = bind(subject.eraseToAnyPublisher(), to: label)
        sendAll(subject, count)
        cancellable.cancel()
        tally.sum &+= label.text
    },
    "flat-map-deferred-future": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let pending = PendingCallbacks()
        let cancellable = requested(for: subject.eraseToAnyPublisher(), through: pending)
            .sink { tally.sum &+= $0 }
        for value in 0..<count {
            subject.send(value)
            pending.promises.removeLast()(.success(value &* 2))
        }
        cancellable.cancel()
    },
    // A `flatMap` whose downstream asks for one value at a time: each send's inner (a two-element
    // sequence) delivers one value at once and leaves the other waiting for demand, and each of
    // the two requests that follow hands a waiting value over and asks its inner for the next
    // (the request `flatMap` makes from its effects). One operation: a send and two requests.
    "flat-map-pull": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let puller = Puller(tally)
        subject.flatMap { [$0, $0].publisher }.subscribe(puller)
        for value in 0..<count {
            subject.send(value)
            puller.pull()
            puller.pull()
        }
        puller.subscription?.cancel()
    },
    // A subscriber that asks for one value at a time through `removeDuplicates` and `filter`, as
    // `for await` over `.values` asks: one operation is a send and the request after it.
    "verdict-pull": { count, tally in
        let subject = PassthroughSubject<Int, Never>()
        let puller = Puller(tally)
        subject.removeDuplicates().filter { $0 >= 0 }.subscribe(puller)
        for value in 0..<count {
            subject.send(value)
            puller.pull()
        }
        puller.subscription?.cancel()
    },
    // Subscriptions that end where their `cancel()` or `deinit` runs unspecialised: a published
    // property's `map.removeDuplicates.sink` made and cancelled, a `zip` of three sequences, a
    // `Record` played, and a one-shot request (`Deferred { Future }.retry.catch.map.sink`).
    "published-dedupe-subscribe": { count, tally in
        let settings = Settings()
        for _ in 0..<count {
            settings.$level.map(plusOne).removeDuplicates().sink { tally.sum &+= $0 }.cancel()
        }
    },
    "zip3-sequences": { count, tally in
        for _ in 0..<count {
            Publishers.Zip3((0..<4).publisher, (0..<4).publisher, (0..<4).publisher)
                .sink { tally.sum &+= $0.0 &+ $0.1 &+ $0.2 }.cancel()
        }
    },
    "record-play": { count, tally in
        for _ in 0..<count {
            Record<Int, Never>(output: [1, 2, 3, 4], completion: .finished).sink { tally.sum &+= $0 }.cancel()
        }
    },
    "retry-request-create": { count, tally in
        for value in 0..<count {
            Deferred { Future<Int, any Error> { $0(.success(value)) } }
                .retry(2)
                .catch { _ in Just(0) }
                .map(plusOne)
                .sink { tally.sum &+= $0 }
                .cancel()
        }
    },
    // One send through `delay` and through `debounce` on the benchmarks' virtual-time
    // scheduler, and the clock moved past it: one operation is one value delivered.
    "delay-virtual": { count, tally in
        virtualTimeSends(count, tally, advance: 5) { $0.delay(for: 5, scheduler: $1) }
    },
    "debounce-virtual": { count, tally in
        virtualTimeSends(count, tally, advance: 20) { $0.debounce(for: 10, scheduler: $1) }
    },
    // The same through `timeout`, whose clock every value starts again, and through
    // `collect(.byTime)`, whose timer ticks once a value and publishes it as a group of one.
    "timeout-virtual": { count, tally in
        virtualTimeSends(count, tally, advance: 5) { $0.timeout(10, scheduler: $1) }
    },
    "collect-by-time-virtual": { count, tally in
        virtualTimeSends(count, tally, advance: 10) { $0.collect(.byTime($1, 10)).map { $0.count } }
    },
]

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]),
    let scenario = scenarios.first(where: { $0.key == arguments[1] })?.value
else {
    print("usage: ProfileTether SCENARIO COUNT, where SCENARIO is one of:")
    for (name, _) in scenarios { print("  \(name)") }
    exit(2)
}
let tally = Tally()
scenario(count, tally)
print(tally.sum)

/// A subscriber that asks for one value at the start and one more each time it is pulled.
final class Puller: Subscriber {
    let tally: Tally
    var subscription: (any Subscription)?

    init(_ tally: Tally) { self.tally = tally }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.max(1))
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        tally.sum &+= input
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func pull() { subscription?.request(.max(1)) }
}
