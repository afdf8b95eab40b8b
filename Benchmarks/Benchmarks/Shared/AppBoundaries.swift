// The API boundaries of the application-shaped scenarios: the functions, protocols and models
// an application's code would put between a source and its subscriber, each erasing function
// `@inline(never)`, as a function in another file or module of an application would be to its
// caller. AppScenarios.swift measures them; the profiling loop (Probes/ProfileTether) counts
// them.
//
// TetherBench, OpenCombineBench and ProfileTether hold this file; the `TETHER` / `OPENCOMBINE`
// condition picks the `import`. What uses operators OpenCombine lacks (`combineLatest`) compiles
// for Tether only.

#if TETHER
import Tether
#elseif OPENCOMBINE
import OpenCombine
import OpenCombineFoundation
#endif

/// The stages' closures, typed once (a literal chain of a dozen inferred closures is more than the
/// type checker will take).
enum Stage {
    static let up: @Sendable (Int) -> Int = { $0 &+ 1 }
    static let down: @Sendable (Int) -> Int = { $0 &- 1 }
    static let keep: @Sendable (Int) -> Bool = { $0 >= 0 }
    static let all: @Sendable (Int) -> Bool = { _ in true }
}

/// Something a screen's model depends on, seen only as a protocol: its publisher is erased.
protocol Feed {
    var values: AnyPublisher<Int, Never> { get }
}

final class SubjectFeed: Feed {
    let subject = PassthroughSubject<Int, Never>()
    var values: AnyPublisher<Int, Never> { subject.eraseToAnyPublisher() }
}

/// `stages` map/filter stages on an erased input, erased again: a view model's derived stream.
@inline(never)
func derived(_ input: AnyPublisher<Int, Never>, stages: Int) -> AnyPublisher<Int, Never> {
    switch stages {
    case 1:
        return input.map(Stage.up).eraseToAnyPublisher()
    case 12:
        return
            input
            .map(Stage.up).filter(Stage.keep).map(Stage.down).filter(Stage.all)
            .map(Stage.up).filter(Stage.keep).map(Stage.down).filter(Stage.all)
            .map(Stage.up).filter(Stage.keep).map(Stage.down).filter(Stage.all)
            .eraseToAnyPublisher()
    default:
        preconditionFailure("stages: 1 or 12")
    }
}

/// The twelve stages of `derived(_:stages:)` written inline on a subject and sunk, nothing
/// erased: what erasure is compared with.
func plainStages(_ subject: PassthroughSubject<Int, Never>, receiveValue: @escaping (Int) -> Void) -> AnyCancellable {
    subject
        .map(Stage.up).filter(Stage.keep).map(Stage.down).filter(Stage.all)
        .map(Stage.up).filter(Stage.keep).map(Stage.down).filter(Stage.all)
        .map(Stage.up).filter(Stage.keep).map(Stage.down).filter(Stage.all)
        .sink(receiveValue: receiveValue)
}

/// The same twelve stages with an erasure after each: every stage behind its own API boundary.
@inline(never)
func erasedEveryStage(_ input: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    var publisher = input
    for stage in 0..<12 {
        publisher =
            stage.isMultiple(of: 2)
            ? publisher.map(Stage.up).eraseToAnyPublisher()
            : publisher.filter(Stage.keep).eraseToAnyPublisher()
    }
    return publisher
}

/// An erased search: each query becomes an erased inner publisher.
@inline(never)
func lookup(_ query: Int) -> AnyPublisher<Int, Never> {
    Just(query &* 2).eraseToAnyPublisher()
}

@inline(never)
func results(for queries: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    queries.flatMap { lookup($0) }.eraseToAnyPublisher()
}

@inline(never)
func pairs(_ a: AnyPublisher<Int, Never>, _ b: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    a.zip(b).map { $0 &+ $1 }.eraseToAnyPublisher()
}

/// A callback-style lookup wrapped in a `Future`, as applications wrap completion handlers.
@inline(never)
func fetch(_ query: Int) -> Future<Int, Never> {
    Future { promise in promise(.success(query &* 2)) }
}

@inline(never)
func fetched(for queries: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    queries.flatMap { fetch($0) }.eraseToAnyPublisher()
}

/// The completion handlers a callback-style API holds until its work is done.
final class PendingCallbacks {
    var promises: [Future<Int, Never>.Promise] = []
}

/// A callback-style request wrapped as networking layers wrap one: a `Future` made on
/// subscription (`Deferred`), fulfilled when the API calls back, erased at the boundary.
@inline(never)
func request(_ query: Int, through pending: PendingCallbacks) -> AnyPublisher<Int, Never> {
    Deferred { Future { promise in pending.promises.append(promise) } }.eraseToAnyPublisher()
}

@inline(never)
func requested(for queries: AnyPublisher<Int, Never>, through pending: PendingCallbacks) -> AnyPublisher<Int, Never> {
    queries.flatMap { request($0, through: pending) }.eraseToAnyPublisher()
}

/// One feed that several screens watch: computed once per value, `share()`d, erased at the
/// boundary.
@inline(never)
func sharedFeed(_ input: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    input.map { $0 &* 2 }.share().eraseToAnyPublisher()
}

/// The first value of each query's erased lookup, as code that wants one answer from a stream
/// writes it.
@inline(never)
func firstResults(for queries: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    queries.flatMap { lookup($0).first() }.eraseToAnyPublisher()
}

/// The latest query's erased lookup only: earlier lookups are cancelled as each query arrives.
@inline(never)
func latestResults(for queries: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    queries.map { lookup($0) }.switchToLatest().eraseToAnyPublisher()
}

#if TETHER
/// Two erased sources of the same kind of event, merged and mapped.
@inline(never)
func events(_ a: AnyPublisher<Int, Never>, _ b: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    a.merge(with: b).map { $0 &+ 1 }.eraseToAnyPublisher()
}
#endif

/// What a failable lookup fails with.
struct LookupError: Error {}

/// A lookup that can fail, erased at its boundary.
@inline(never)
func failableLookup(_ query: Int) -> AnyPublisher<Int, LookupError> {
    Just(query &* 2).setFailureType(to: LookupError.self).eraseToAnyPublisher()
}

/// Each query's failable lookup with a fallback where it fails, as a screen that must show
/// something writes it: the inner is a `catch` around an erased lookup.
@inline(never)
func resultsOrFallback(for queries: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    queries.flatMap { failableLookup($0).catch { _ in Just(0) } }.eraseToAnyPublisher()
}

/// Ids fetched one after another, as code that must not flood a server writes it: each id's
/// erased `Future` subscribed only once the one before it has finished.
@inline(never)
func fetchedOneByOne(_ ids: [Int]) -> AnyPublisher<Int, Never> {
    ids.publisher.flatMap(maxPublishers: .max(1)) { fetch($0).eraseToAnyPublisher() }.eraseToAnyPublisher()
}

/// A stream that starts from what is cached, then follows the live source, as a screen that must
/// show something at once writes it: `prepend` on the erased source, erased again.
@inline(never)
func cachedThenLive(_ live: AnyPublisher<Int, Never>, cached: Int) -> AnyPublisher<Int, Never> {
    live.prepend(cached).eraseToAnyPublisher()
}

/// A feed read with `for await`, as Swift-concurrency code reads a publisher: deduplicated and
/// filtered, erased at the boundary. `values` asks for one value at a time, through every stage.
@inline(never)
func readable(_ feed: AnyPublisher<Int, Never>) -> AnyPublisher<Int, Never> {
    feed.removeDuplicates().filter { $0 >= 0 }.eraseToAnyPublisher()
}

/// A view model as code since `assign(to:)` binds one: a `@Published` property derived from
/// another through `assign(to: &$property)`, which lives as long as the model.
final class SearchModel {
    @Published var query = 0
    @Published var resultCount = 0

    init() {
        $query.map { $0 &* 2 }.removeDuplicates().assign(to: &$resultCount)
    }
}

/// A view's label, as UIKit-era code binds it: `assign(to:on:)` a model's property.
final class Label {
    var text = 0
}

@inline(never)
func bind(_ input: AnyPublisher<Int, Never>, to label: Label) -> AnyCancellable {
    input.map { $0 &* 2 }.assign(to: \.text, on: label)
}

struct DecodingError: Error {}

/// A response stream that can fail, decoded with a throwing step and its error wrapped, as a
/// networking layer hands one out.
@inline(never)
func decoded(_ responses: AnyPublisher<Int, Error>) -> AnyPublisher<Int, Error> {
    responses
        .tryMap { response -> Int in
            guard response >= 0 else { throw DecodingError() }
            return response &+ 1
        }
        .mapError { $0 }
        .eraseToAnyPublisher()
}

/// A response stream parsed by throwing steps that may skip a response, as a feed's reader hands
/// one out (every response here is kept, so each send reaches the subscriber).
@inline(never)
func parsed(_ responses: AnyPublisher<Int, Error>) -> AnyPublisher<Int, Error> {
    responses
        .tryCompactMap { response -> Int? in
            guard response >= 0 else { throw DecodingError() }
            return response == Int.max ? nil : response &+ 1
        }
        .tryFilter { parsed in
            guard parsed != Int.min else { throw DecodingError() }
            return true
        }
        .eraseToAnyPublisher()
}

final class Settings {
    @Published var level = 0
}

/// A screen's model as SwiftUI-era code writes it: an `ObservableObject` whose view watches
/// `objectWillChange` and whose other parts watch one property.
final class ScreenModel: ObservableObject {
    @Published var query = ""
    @Published var count = 0
}

@inline(never)
func levelChanges(_ settings: Settings) -> AnyPublisher<Int, Never> {
    settings.$level.map { $0 / 2 }.removeDuplicates().eraseToAnyPublisher()
}

/// A screen's state as one value, as a store keeps it; each view reads its own fields.
struct ScreenState {
    var title = ""
    var isLoading = false
    var count = 0
}

final class Store {
    @Published var state = ScreenState()
}

@inline(never)
func titles(of store: Store) -> AnyPublisher<String, Never> {
    store.$state.map(\.title).removeDuplicates().eraseToAnyPublisher()
}

@inline(never)
func loading(of store: Store) -> AnyPublisher<Bool, Never> {
    store.$state.map(\.isLoading).removeDuplicates().eraseToAnyPublisher()
}

#if TETHER
/// `levels` nested `combineLatest`s, each erased: a form whose every field is derived from the
/// previous one and a setting of its own (which does not change while values are sent).
@inline(never)
func nestedCombineLatest(_ source: AnyPublisher<Int, Never>, levels: Int) -> AnyPublisher<Int, Never> {
    var publisher = source
    for level in 0..<levels {
        let setting = CurrentValueSubject<Int, Never>(level).eraseToAnyPublisher()
        publisher = publisher.combineLatest(setting).map { $0 &+ $1 }.eraseToAnyPublisher()
    }
    return publisher
}
#endif
