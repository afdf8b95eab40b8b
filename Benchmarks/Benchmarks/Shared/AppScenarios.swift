// Application-shaped scenarios: the shapes application code has, not whole chains the optimiser
// sees at once. Publishers are erased to `AnyPublisher` where an API boundary would erase them
// (returned from functions and protocol requirements the caller sees only as `AnyPublisher`),
// sources are subjects and `@Published`, chains are a dozen stages deep, and inner publishers are
// erased. The boundaries themselves are in AppBoundaries.swift.
//
// TetherBench and OpenCombineBench both hold this file; the `TETHER` / `OPENCOMBINE` condition
// picks the `import`. Scenarios with operators OpenCombine lacks (`combineLatest`) compile for
// Tether only.

#if TETHER
import Tether
#elseif OPENCOMBINE
import OpenCombine
import OpenCombineFoundation
#endif
import Benchmark
import Foundation

// MARK: - The scenarios

extension Scenario {
    /// Registers the usual application shape: a subject, handed to `watch` erased as an API hands
    /// one out, which subscribes what the screen needs and returns the cancellables; each
    /// operation is one `send`, and only the sends are measured.
    func registerSends<Failure: Error>(
        failing _: Failure.Type,
        watch: @escaping (AnyPublisher<Int, Failure>, Tally) -> [AnyCancellable]
    ) {
        register { benchmark in
            let subject = PassthroughSubject<Int, Failure>()
            let tally = Tally()
            let cancellables = watch(subject.eraseToAnyPublisher(), tally)
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.send(value) }
            benchmark.stopMeasurement()
            for cancellable in cancellables { cancellable.cancel() }
            blackHole(tally.sum)
        }
    }

    /// Registers `sinks` sinks on `chain` of the subject's erased publisher: per send.
    func registerSends(
        sinks: Int = 1, through chain: @escaping (AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never>
    ) {
        registerSends(failing: Never.self) { input, tally in
            let watched = chain(input)
            return (0..<sinks).map { _ in watched.sink { tally.sum &+= $0 } }
        }
    }
}

func registerAppScenarios() {
    // A subject behind a protocol, twelve stages, erased: per send.
    Catalog.appErased12.register { benchmark in
        let feed: any Feed = SubjectFeed()
        let tally = Tally()
        let cancellable = derived(feed.values, stages: 12).sink { tally.sum &+= $0 }
        let subject = (feed as! SubjectFeed).subject
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // The same with one stage: twelve stages should cost about twelve times this.
    Catalog.appErased1.register { benchmark in
        let feed: any Feed = SubjectFeed()
        let tally = Tally()
        let cancellable = derived(feed.values, stages: 1).sink { tally.sum &+= $0 }
        let subject = (feed as! SubjectFeed).subject
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // A subject handed out erased, as a protocol's `AnyPublisher`, and sunk: per send.
    Catalog.appErasedSubjectSink.register { benchmark in
        let feed: any Feed = SubjectFeed()
        let tally = Tally()
        let cancellable = feed.values.sink { tally.sum &+= $0 }
        let subject = (feed as! SubjectFeed).subject
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // The twelve stages written inline, nothing erased: what erasure is compared with.
    Catalog.appPlain12.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = plainStages(subject) { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Every one of the twelve stages behind its own erasure: per send.
    Catalog.appErasedEveryStage.registerSends(through: erasedEveryStage)

    // Twelve erased stages over a Sequence publisher: per element, subscription included.
    Catalog.appSequenceErased12.register { benchmark in
        let tally = Tally()
        let source = benchmark.scaledIterations.publisher.eraseToAnyPublisher()
        let cancellable = derived(source, stages: 12).sink { tally.sum &+= $0 }
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Two erased subjects zipped, mapped, erased: per pair sent.
    Catalog.appZipErased.register { benchmark in
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = pairs(a.eraseToAnyPublisher(), b.eraseToAnyPublisher()).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            a.send(value)
            b.send(value)
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // An erased subject flat-mapped to erased inner publishers, erased: per send.
    Catalog.appFlatMapErased.registerSends(through: results(for:))

    // Each value requested through a callback API, which calls back after the send: per send
    // and callback (a future made, subscribed, fulfilled later and delivered).
    Catalog.appFlatMapFutureLater.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let pending = PendingCallbacks()
        let tally = Tally()
        let cancellable = requested(for: subject.eraseToAnyPublisher(), through: pending).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            subject.send(value)
            pending.promises.removeLast()(.success(value &* 2))
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Each value's erased lookup cut to its first value: per send (a `first()` subscribed to the
    // lookup and let go of).
    Catalog.appFlatMapFirst.registerSends(through: firstResults(for:))

    // Each value's failable erased lookup behind a `catch`: per send (a `catch` subscribed to the
    // lookup and let go of).
    Catalog.appFlatMapCatch.registerSends(through: resultsOrFallback(for:))

    // A thousand ids fetched one at a time, each through an erased `Future`: per id (the
    // subscription made once an iteration, each future subscribed after the last finished).
    Catalog.appFlatMapOneByOne.register { benchmark in
        let ids = Array(0..<benchmark.scaledIterations.count)
        let tally = Tally()
        benchmark.startMeasurement()
        let cancellable = fetchedOneByOne(ids).sink { tally.sum &+= $0 }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // A live erased stream behind a cached first value (`prepend`), erased again: per send of the
    // live source (the cached value goes out once, at subscription).
    Catalog.appPrependErased.registerSends(through: { cachedThenLive($0, cached: 0) })

    // An erased feed read with `for await` over `.values`, which asks each stage for one value
    // at a time: per element.
    Catalog.appValuesErased.registerAsync { _ in
        let feed = (0..<Catalog.appValuesErased.operations).publisher.eraseToAnyPublisher()
        var sum = 0
        for await value in readable(feed).values { sum &+= value }
        blackHole(sum)
    }

    // Each value's erased lookup replacing the last one: per send (an inner subscribed, the
    // previous one cancelled).
    Catalog.appSwitchToLatestErased.registerSends(through: latestResults(for:))

    // An erased subject mapped and assigned to an object's property: per send.
    Catalog.appAssign.registerSends(failing: Never.self) { input, _ in [bind(input, to: Label())] }

    // A failable erased stream decoded, its failure replaced where it is watched: per send.
    Catalog.appThrowingErased.registerSends(failing: Error.self) { input, tally in
        [decoded(input).replaceError(with: 0).sink { tally.sum &+= $0 }]
    }

    // A failable erased stream parsed by steps that may throw or skip, its failure replaced
    // where it is watched: per send.
    Catalog.appParsedErased.registerSends(failing: Error.self) { input, tally in
        [parsed(input).replaceError(with: 0).sink { tally.sum &+= $0 }]
    }

    // A notification observed through the center's publisher, as apps watch the system's
    // events: per post (the center's own dispatch included; the raw floor is an observer block).
    Catalog.appNotification.register { benchmark in
        let center = NotificationCenter()
        let name = Notification.Name("App.changed")
        let tally = Tally()
        let cancellable = center.publisher(for: name).map { _ in 1 }.filter { $0 > 0 }.sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { center.post(name: name, object: nil) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Subscribing to an erased twelve-stage chain, kept in a Set<AnyCancellable>, then
    // cancelling it: per subscribe and cancel.
    Catalog.appSubscribeCancelErased12.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let chain = derived(subject.eraseToAnyPublisher(), stages: 12)
        let tally = Tally()
        var cancellables = Set<AnyCancellable>()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            chain.sink { tally.sum &+= $0 }.store(in: &cancellables)
            cancellables.removeAll()
        }
        benchmark.stopMeasurement()
        blackHole(tally.sum)
    }

    // A @Published property through map and removeDuplicates, erased: per change.
    Catalog.appPublished.register { benchmark in
        let settings = Settings()
        let tally = Tally()
        let cancellable = levelChanges(settings).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { settings.level = value }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // A model's property set while `assign(to: &$property)` keeps another derived from it: per
    // change (the derived property's value read once at the end).
    Catalog.appAssignToPublished.register { benchmark in
        let model = SearchModel()
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { model.query = value }
        benchmark.stopMeasurement()
        blackHole(model.resultCount)
    }

    // `$property.sink { … }`, the plainest way an application watches a value: per change.
    Catalog.appPublishedSink.register { benchmark in
        let settings = Settings()
        let tally = Tally()
        let cancellable = settings.$level.sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { settings.level = value }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Each value looked up through a `Future`, flattened: per send (a future made, subscribed,
    // fulfilled and delivered).
    Catalog.appFlatMapFuture.registerSends(through: fetched(for:))

    // A shared feed watched by three sinks: per send (three deliveries).
    Catalog.appShared.registerSends(sinks: 3, through: sharedFeed)

    // A store's state, one struct, set while two views each read a field of it by key path and
    // skip repeats: per change.
    Catalog.appPublishedState.register { benchmark in
        let store = Store()
        let tally = Tally()
        let title = titles(of: store).sink { tally.sum &+= $0.utf8.count }
        let spinner = loading(of: store).sink { tally.sum &+= $0 ? 1 : 0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            store.state = ScreenState(
                title: value & 2 == 0 ? "ready" : "loading", isLoading: value & 1 == 0, count: value)
        }
        benchmark.stopMeasurement()
        title.cancel()
        spinner.cancel()
        blackHole(tally.sum)
    }

    // A model's property set while its view watches `objectWillChange` and a sink watches the
    // property: per change.
    Catalog.appModelSet.register { benchmark in
        let model = ScreenModel()
        let tally = Tally()
        let view = model.objectWillChange.sink { tally.sum &+= 1 }
        let watcher = model.$count.sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { model.count = value }
        benchmark.stopMeasurement()
        view.cancel()
        watcher.cancel()
        blackHole(tally.sum)
    }

    // A model made for a screen (or a list row), watched as above, changed once and released:
    // per model.
    Catalog.appModelLifetime.register { benchmark in
        let tally = Tally()
        for value in benchmark.scaledIterations {
            let model = ScreenModel()
            let view = model.objectWillChange.sink { tally.sum &+= 1 }
            let watcher = model.$count.sink { tally.sum &+= $0 }
            model.count = value
            view.cancel()
            watcher.cancel()
        }
        blackHole(tally.sum)
    }

    #if TETHER
    // Seven nested combineLatest levels, each erased: per send of the shared source.
    Catalog.appCombineLatest7.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = nestedCombineLatest(subject.eraseToAnyPublisher(), levels: 7)
            .sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // Two erased subjects merged and mapped, erased: per send (alternating sources).
    Catalog.appMergeErased.register { benchmark in
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = events(a.eraseToAnyPublisher(), b.eraseToAnyPublisher()).sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            if value & 1 == 0 { a.send(value) } else { b.send(value) }
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }

    // One erased combineLatest level: seven should cost about seven times this.
    Catalog.appCombineLatest1.register { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        let tally = Tally()
        let cancellable = nestedCombineLatest(subject.eraseToAnyPublisher(), levels: 1)
            .sink { tally.sum &+= $0 }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        blackHole(tally.sum)
    }
    #endif
}
