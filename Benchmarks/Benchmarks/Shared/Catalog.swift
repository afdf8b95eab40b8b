// The catalog of scenarios, shared by every benchmark target (TetherBench, OpenCombineBench and
// RawBench hold symlinks to this file), so each scenario has one name and one operation count.

import Benchmark

/// A measured scenario: the name all three targets register it under, and how many operations
/// one measured iteration performs (`run.sh` divides each iteration's figures by it).
struct Scenario: Sendable {
    let name: String
    /// Operations per measured iteration. When it is 1,000 or 1,000,000 (a
    /// `BenchmarkScalingFactor`) it is the benchmark's `scaledIterations`; other counts (the
    /// async scenarios' 100,000 elements) are the scenario's own loop.
    let operations: Int

    private var configuration: Benchmark.Configuration {
        .init(
            metrics: [.wallClock, .mallocCountTotal],
            tags: ["ops": String(operations)],
            // Raw nanoseconds and counts per iteration in the exported samples (automatic
            // units would round counts to thousands).
            timeUnits: .nanoseconds,
            units: [.mallocCountTotal: .count],
            warmupIterations: 2,
            scalingFactor: BenchmarkScalingFactor(rawValue: operations) ?? .one,
            maxDuration: .seconds(2),
            maxIterations: 2_000
        )
    }

    /// Registers `body` as this scenario. The operation count travels as the `ops` tag, which the
    /// benchmark tool appends to the name ("… (ops: 1000)") and which `report.py` reads back.
    func register(_ body: @escaping (Benchmark) -> Void) {
        Benchmark(name, configuration: configuration, closure: body)
    }

    /// Registers an `async` body (the async/await bridges).
    func registerAsync(_ body: @escaping (Benchmark) async -> Void) {
        Benchmark(name, configuration: configuration, closure: body)
    }
}

enum Catalog {
    // Per-element paths: a raw loop calling the same closures is their floor.
    static let sequenceMapFilter = Scenario(name: "Sequence.map.filter.sink", operations: 1_000_000)
    static let sequenceMaxOne = Scenario(name: "Sequence, subscriber returns .max(1)", operations: 1_000_000)
    static let sequenceRequestOne = Scenario(
        name: "Sequence, subscriber calls request(.max(1))", operations: 1_000_000)
    static let passthroughOne = Scenario(name: "PassthroughSubject.send, 1 sink", operations: 1_000)
    static let passthroughTen = Scenario(name: "PassthroughSubject.send, 10 sinks", operations: 1_000)
    static let currentValueMap = Scenario(name: "CurrentValueSubject.map.sink send", operations: 1_000)
    static let subjectBufferBatches = Scenario(
        name: "PassthroughSubject.buffer, 4 sends then request(.max(4)), per value", operations: 1_000)

    // Setup costs: no raw floor.
    static let justMapSink = Scenario(name: "Just.map.sink create+cancel", operations: 1_000)
    static let subjectSinkCancel = Scenario(name: "PassthroughSubject.sink subscribe+cancel", operations: 1_000)

    // RxSwift's benchmark suite, ported to the Combine API.
    static let rxPumping = Scenario(name: "Rx PublishSubjectPumping", operations: 1_000)
    static let rxPumpingTwo = Scenario(name: "Rx PublishSubjectPumpingTwoSubscriptions", operations: 1_000)
    static let rxCreating = Scenario(name: "Rx PublishSubjectCreating", operations: 1_000)
    static let rxMapFilterPumping = Scenario(name: "Rx MapFilterPumping", operations: 1_000)
    static let rxMapFilterCreating = Scenario(name: "Rx MapFilterCreating", operations: 1_000)

    // The rest of RxSwift's suite, and the combining operators.
    static let rxFlatMapsPumping = Scenario(name: "Rx FlatMapsPumping", operations: 1_000)
    static let rxFlatMapsCreating = Scenario(name: "Rx FlatMapsCreating", operations: 1_000)
    static let rxFlatMapLatestPumping = Scenario(name: "Rx FlatMapLatestPumping", operations: 1_000)
    static let rxFlatMapLatestCreating = Scenario(name: "Rx FlatMapLatestCreating", operations: 1_000)
    static let rxCombineLatestPumping = Scenario(name: "Rx CombineLatestPumping", operations: 1_000)
    static let rxCombineLatestCreating = Scenario(name: "Rx CombineLatestCreating", operations: 1_000)
    static let mergeTwoSubjects = Scenario(name: "merge of two subjects, send", operations: 1_000)
    static let zipTwoSubjects = Scenario(name: "zip of two subjects, send pair", operations: 1_000)
    static let scanRemoveDuplicates = Scenario(name: "Sequence.scan.removeDuplicates.sink", operations: 1_000_000)

    // Schedulers and time.
    static let receiveOnImmediate = Scenario(name: "receive(on: ImmediateScheduler), send", operations: 1_000)
    static let receiveOnDispatch = Scenario(name: "receive(on: DispatchQueue), 1000 values", operations: 1_000)
    static let debounceVirtual = Scenario(name: "debounce on a virtual-time scheduler", operations: 1_000)
    static let delayVirtual = Scenario(name: "delay on a virtual-time scheduler", operations: 1_000)

    // async/await bridges; the raw floor is a plain AsyncStream (or AsyncSequence) loop.
    static let valuesLoop = Scenario(name: "for await over .values, 100k elements", operations: 100_000)
    static let asyncSequencePublisher = Scenario(name: "AsyncSequence.publisher, 100k elements", operations: 100_000)
    static let asyncMapOne = Scenario(name: "asyncMap(maxConcurrent: 1), 1000 values", operations: 1_000)
    static let asyncMapFour = Scenario(name: "asyncMap(maxConcurrent: 4), 1000 values", operations: 1_000)

    // Application-shaped: erased at API boundaries, subject and @Published sources, deep chains.
    static let appErased12 = Scenario(name: "App: subject, 12 stages, erased, send", operations: 1_000)
    static let appErased1 = Scenario(name: "App: subject, 1 stage, erased, send", operations: 1_000)
    static let appPlain12 = Scenario(name: "App: subject, 12 stages, not erased, send", operations: 1_000)
    static let appErasedEveryStage = Scenario(
        name: "App: subject, 12 stages each erased, send", operations: 1_000)
    static let appSequenceErased12 = Scenario(
        name: "App: Sequence, 12 stages, erased, per element", operations: 1_000)
    static let appZipErased = Scenario(name: "App: zip of two erased subjects, send pair", operations: 1_000)
    static let appShared = Scenario(name: "App: erased subject, map, share(), 3 sinks, send", operations: 1_000)
    static let appFlatMapErased = Scenario(
        name: "App: erased subject, flatMap to erased Just, send", operations: 1_000)
    static let appFlatMapFuture = Scenario(
        name: "App: erased subject, flatMap to a Future, send", operations: 1_000)
    static let appFlatMapFutureLater = Scenario(
        name: "App: erased subject, flatMap to an erased Deferred Future fulfilled later, send", operations: 1_000)
    static let appFlatMapFirst = Scenario(
        name: "App: erased subject, flatMap to an erased lookup's first(), send", operations: 1_000)
    static let appFlatMapCatch = Scenario(
        name: "App: erased subject, flatMap to an erased failable lookup's catch, send", operations: 1_000)
    static let appFlatMapOneByOne = Scenario(
        name: "App: ids, flatMap(maxPublishers: .max(1)) to erased Futures, per id", operations: 1_000)
    static let appSwitchToLatestErased = Scenario(
        name: "App: erased subject, map to erased Just, switchToLatest, send", operations: 1_000)
    static let appPrependErased = Scenario(
        name: "App: erased subject, prepend(cached), erased, send", operations: 1_000)
    static let appValuesErased = Scenario(
        name: "App: for await over an erased sequence's removeDuplicates.filter .values, 100k elements",
        operations: 100_000)
    static let appMergeErased = Scenario(name: "App: merge of two erased subjects, map, send", operations: 1_000)
    static let appAssign = Scenario(name: "App: erased subject, map, assign(to:on:), send", operations: 1_000)
    static let appThrowingErased = Scenario(
        name: "App: erased throwing subject, tryMap, mapError, replaceError, send", operations: 1_000)
    static let appParsedErased = Scenario(
        name: "App: erased throwing subject, tryCompactMap, tryFilter, replaceError, send", operations: 1_000)
    static let appNotification = Scenario(
        name: "App: NotificationCenter publisher, map, filter, sink, post", operations: 1_000)
    static let appSubscribeCancelErased12 = Scenario(
        name: "App: 12 erased stages, subscribe+cancel in a Set", operations: 1_000)
    static let appPublished = Scenario(name: "App: @Published.map.removeDuplicates, erased, set", operations: 1_000)
    static let appAssignToPublished = Scenario(
        name: "App: @Published.map.removeDuplicates.assign(to: &$property), set", operations: 1_000)
    static let appPublishedSink = Scenario(name: "App: @Published property, sink, set", operations: 1_000)
    static let appPublishedState = Scenario(
        name: "App: @Published struct, 2 views map(keyPath).removeDuplicates, set", operations: 1_000)
    static let appErasedSubjectSink = Scenario(name: "App: erased subject, sink, send", operations: 1_000)
    static let appModelSet = Scenario(
        name: "App: ObservableObject, objectWillChange and $property sinks, set", operations: 1_000)
    static let appModelLifetime = Scenario(
        name: "App: ObservableObject made, both sinks, set, released", operations: 1_000)
    static let appCombineLatest7 = Scenario(name: "App: 7 erased combineLatest levels, send", operations: 1_000)
    static let appCombineLatest1 = Scenario(name: "App: 1 erased combineLatest level, send", operations: 1_000)

    // Beyond Combine: Tether's own operators (no peer has them).
    static let flatMapLatestPumping = Scenario(name: "5x flatMapLatest { Just }, per element", operations: 1_000)
    static let concatMapPumping = Scenario(name: "5x concatMap { Just }, per element", operations: 1_000)
    static let flatMapFirstPumping = Scenario(name: "5x flatMapFirst { Just }, per element", operations: 1_000)
    static let withLatestFromSend = Scenario(name: "withLatestFrom of two subjects, send", operations: 1_000)
    static let replaySubjectSend = Scenario(name: "ReplaySubject(bufferSize: 16).send, 1 sink", operations: 1_000)
    static let ambWinnerSend = Scenario(name: "amb of two subjects, winner's send", operations: 1_000)
    static let combineLatestCollectionSend = Scenario(name: "[8 subjects].combineLatest(), send", operations: 1_000)
    static let withUnretainedPumping = Scenario(name: "Sequence.withUnretained.sink", operations: 1_000_000)
    static let materializeRoundTrip = Scenario(name: "Sequence.materialize.dematerialize.sink", operations: 1_000_000)
}

/// An asynchronous sequence of `0..<count` that never suspends: the cheapest `AsyncSequence`,
/// so what is measured is the bridge around it.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let count: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var next = 0
        let count: Int
        mutating func next() async -> Int? {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
}

/// The per-element closures every scenario uses, identical in the library and raw targets.
enum Closures {
    static let transform: @Sendable (Int) -> Int = { $0 &* 3 }
    static let asyncTransform: @Sendable (Int) async -> Int = { $0 &* 3 }
    static let isIncluded: @Sendable (Int) -> Bool = { $0 & 1 == 0 }
}
