// Seed 000 ("memory management in Combine"), its ModelLoader samples compiled as the article
// writes them, loading from a real HTTP server on 127.0.0.1. What the article elides with "..."
// (the initialisers, and the `Database` and `Stored` types) is filled in. Values are received on
// `DispatchQueue.main`, which on Linux runs when the main run loop runs: the tests run it.
import Foundation
import Tether
import TetherExtras
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Publisher where Failure == Never {
    func weakAssign<T: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<T, Output>,
        on object: T
    ) -> AnyCancellable {
        sink { [weak object] value in
            object?[keyPath: keyPath] = value
        }
    }
}

/// What the article's `Database` stores: a model with local metadata.
struct Stored<Model> {
    var id: Int
    var model: Model
}

/// The article's asynchronous database: `store(_:)` saves on a background queue.
final class Database {
    private let queue = DispatchQueue(label: "TetherSeedTests.Database")
    private(set) var count = 0

    func store<Model>(_ model: Model) -> AnyPublisher<Stored<Model>, Error> {
        Future { promise in
            self.queue.async {
                self.count += 1
                promise(.success(Stored(id: self.count, model: model)))
            }
        }
        .eraseToAnyPublisher()
    }
}

/// The first ModelLoader: `sink` with `[weak self]`.
enum SinkLoaderSample {
    class ModelLoader<Model: Decodable>: ObservableObject {
        enum State {
            case idle
            case loading
            case loaded(Model)
            case failed(Error)
        }

        @Published private(set) var state = State.idle

        private let url: URL
        private let session: URLSession
        private let decoder: JSONDecoder
        private var cancellable: AnyCancellable?

        init(url: URL, session: URLSession, decoder: JSONDecoder = .init()) {
            self.url = url
            self.session = session
            self.decoder = decoder
        }

        func load() {
            state = .loading
            cancellable =
                session
                .dataTaskPublisher(for: url)
                .map(\.data)
                .decode(type: Model.self, decoder: decoder)
                .map(State.loaded)
                .catch { error in
                    Just(.failed(error))
                }
                .receive(on: DispatchQueue.main)
                .sink { [weak self] state in
                    self?.state = state
                }
        }
    }
}

/// The second ModelLoader: `weakAssign(to:on:)`.
enum WeakAssignLoaderSample {
    class ModelLoader<Model: Decodable>: ObservableObject {
        enum State {
            case idle
            case loading
            case loaded(Model)
            case failed(Error)
        }

        @Published private(set) var state = State.idle

        private let url: URL
        private let session: URLSession
        private let decoder: JSONDecoder
        private var cancellable: AnyCancellable?

        init(url: URL, session: URLSession, decoder: JSONDecoder = .init()) {
            self.url = url
            self.session = session
            self.decoder = decoder
        }

        func load() {
            state = .loading

            cancellable =
                session
                .dataTaskPublisher(for: url)
                .map(\.data)
                .decode(type: Model.self, decoder: decoder)
                .map(State.loaded)
                .catch { error in
                    Just(.failed(error))
                }
                .receive(on: DispatchQueue.main)
                .weakAssign(to: \.state, on: self)
        }
    }
}

/// The database ModelLoaders share their state, properties and initialiser.
enum WeakSelfDatabaseLoaderSample {
    class ModelLoader<Model: Decodable>: ObservableObject {
        enum State {
            case idle
            case loading
            case loaded(Stored<Model>)
            case failed(Error)
        }

        @Published private(set) var state = State.idle

        private let url: URL
        private let session: URLSession
        private let decoder: JSONDecoder
        private var cancellable: AnyCancellable?
        private let database: Database

        init(url: URL, session: URLSession, decoder: JSONDecoder = .init(), database: Database) {
            self.url = url
            self.session = session
            self.decoder = decoder
            self.database = database
        }

        func load() {
            state = .loading

            cancellable =
                session
                .dataTaskPublisher(for: url)
                .map(\.data)
                .decode(type: Model.self, decoder: decoder)
                .flatMap {
                    [weak self] model -> AnyPublisher<Stored<Model>, Error> in

                    guard let database = self?.database else {
                        return Empty(completeImmediately: true)
                            .eraseToAnyPublisher()
                    }

                    return database.store(model)
                }
                .map(State.loaded)
                .catch { error in
                    Just(.failed(error))
                }
                .receive(on: DispatchQueue.main)
                .weakAssign(to: \.state, on: self)
        }
    }
}

enum CapturedDatabaseLoaderSample {
    class ModelLoader<Model: Decodable>: ObservableObject {
        enum State {
            case idle
            case loading
            case loaded(Stored<Model>)
            case failed(Error)
        }

        @Published private(set) var state = State.idle

        private let url: URL
        private let session: URLSession
        private let decoder: JSONDecoder
        private var cancellable: AnyCancellable?
        private let database: Database

        init(url: URL, session: URLSession, decoder: JSONDecoder = .init(), database: Database) {
            self.url = url
            self.session = session
            self.decoder = decoder
            self.database = database
        }

        func load() {
            state = .loading

            cancellable =
                session
                .dataTaskPublisher(for: url)
                .map(\.data)
                .decode(type: Model.self, decoder: decoder)
                .flatMap { [database] model in
                    database.store(model)
                }
                .map(State.loaded)
                .catch { error in
                    Just(.failed(error))
                }
                .receive(on: DispatchQueue.main)
                .weakAssign(to: \.state, on: self)
        }
    }
}

enum MethodReferenceLoaderSample {
    class ModelLoader<Model: Decodable>: ObservableObject {
        enum State {
            case idle
            case loading
            case loaded(Stored<Model>)
            case failed(Error)
        }

        @Published private(set) var state = State.idle

        private let url: URL
        private let session: URLSession
        private let decoder: JSONDecoder
        private var cancellable: AnyCancellable?
        private let database: Database

        init(url: URL, session: URLSession, decoder: JSONDecoder = .init(), database: Database) {
            self.url = url
            self.session = session
            self.decoder = decoder
            self.database = database
        }

        func load() {
            state = .loading

            cancellable =
                session
                .dataTaskPublisher(for: url)
                .map(\.data)
                .decode(type: Model.self, decoder: decoder)
                .flatMap(database.store)
                .map(State.loaded)
                .catch { error in
                    Just(.failed(error))
                }
                .receive(on: DispatchQueue.main)
                .weakAssign(to: \.state, on: self)
        }
    }
}

/// The model the tests load.
struct Article: Decodable, Equatable {
    var title: String
}

final class ModelLoaderSeedTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    private let session = makeUncachedSession()

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer { path in
            path == "/article.json"
                ? .init(body: Data(#"{"title":"Memory management"}"#.utf8))
                : .init(body: Data(#"{"headline":42}"#.utf8))
        }
    }

    override func tearDown() {
        server.stop()
        session.finishTasksAndInvalidate()
        let live = SubscriptionLedger.liveAfterSettling()
        XCTAssertTrue(live.isEmpty, SubscriptionLedger.leakReport(live))
        super.tearDown()
    }

    private var articleURL: URL { server.url("/article.json") }
    private var malformedURL: URL { server.url("/malformed.json") }

    func testSinkLoaderLoadsAndDecodes() {
        let loader = SinkLoaderSample.ModelLoader<Article>(url: articleURL, session: session)
        loader.load()
        guard case .loading = loader.state else { return XCTFail("\(loader.state)") }
        XCTAssertTrue(
            runMainRunLoop(timeout: 10) {
                if case .loaded = loader.state { return true } else { return false }
            })
        guard case .loaded(let article) = loader.state else { return XCTFail("\(loader.state)") }
        XCTAssertEqual(article, Article(title: "Memory management"))
        XCTAssertEqual(server.requestedPaths, ["/article.json"])
    }

    func testSinkLoaderReportsADecodingFailureAsFailed() {
        let loader = SinkLoaderSample.ModelLoader<Article>(url: malformedURL, session: session)
        loader.load()
        XCTAssertTrue(
            runMainRunLoop(timeout: 10) {
                if case .failed = loader.state { return true } else { return false }
            })
        guard case .failed(let error) = loader.state else { return XCTFail("\(loader.state)") }
        XCTAssertTrue(error is DecodingError, "\(error)")
    }

    func testSinkLoaderDoesNotKeepItselfAlive() {
        weak var weakLoader: SinkLoaderSample.ModelLoader<Article>?
        do {
            let loader = SinkLoaderSample.ModelLoader<Article>(url: articleURL, session: session)
            weakLoader = loader
            loader.load()
            XCTAssertTrue(
                runMainRunLoop(timeout: 10) {
                    if case .loaded = loader.state { return true } else { return false }
                })
        }
        XCTAssertNil(weakLoader)
    }

    func testWeakAssignLoaderLoadsAndDecodes() {
        weak var weakLoader: WeakAssignLoaderSample.ModelLoader<Article>?
        do {
            let loader = WeakAssignLoaderSample.ModelLoader<Article>(url: articleURL, session: session)
            weakLoader = loader
            loader.load()
            XCTAssertTrue(
                runMainRunLoop(timeout: 10) {
                    if case .loaded = loader.state { return true } else { return false }
                })
            guard case .loaded(let article) = loader.state else { return XCTFail("\(loader.state)") }
            XCTAssertEqual(article.title, "Memory management")
        }
        XCTAssertNil(weakLoader, "weakAssign captures the loader weakly")
    }

    func testWeakAssignLoaderReportsADecodingFailureAsFailed() {
        let loader = WeakAssignLoaderSample.ModelLoader<Article>(url: malformedURL, session: session)
        loader.load()
        XCTAssertTrue(
            runMainRunLoop(timeout: 10) {
                if case .failed = loader.state { return true } else { return false }
            })
    }

    func testWeakSelfDatabaseLoaderStoresTheModel() {
        let database = Database()
        let loader = WeakSelfDatabaseLoaderSample.ModelLoader<Article>(
            url: articleURL, session: session, database: database)
        loader.load()
        XCTAssertTrue(
            runMainRunLoop(timeout: 10) {
                if case .loaded = loader.state { return true } else { return false }
            })
        guard case .loaded(let stored) = loader.state else { return XCTFail("\(loader.state)") }
        XCTAssertEqual(stored.model.title, "Memory management")
        XCTAssertEqual(stored.id, 1)
        XCTAssertEqual(database.count, 1)
    }

    func testCapturedDatabaseLoaderStoresTheModel() {
        let database = Database()
        let loader = CapturedDatabaseLoaderSample.ModelLoader<Article>(
            url: articleURL, session: session, database: database)
        loader.load()
        XCTAssertTrue(
            runMainRunLoop(timeout: 10) {
                if case .loaded = loader.state { return true } else { return false }
            })
        guard case .loaded(let stored) = loader.state else { return XCTFail("\(loader.state)") }
        XCTAssertEqual(stored.model, Article(title: "Memory management"))
        XCTAssertEqual(database.count, 1)
    }

    func testMethodReferenceLoaderStoresTheModel() {
        let database = Database()
        let loader = MethodReferenceLoaderSample.ModelLoader<Article>(
            url: articleURL, session: session, database: database)
        loader.load()
        XCTAssertTrue(
            runMainRunLoop(timeout: 10) {
                if case .loaded = loader.state { return true } else { return false }
            })
        guard case .loaded(let stored) = loader.state else { return XCTFail("\(loader.state)") }
        XCTAssertEqual(stored.model, Article(title: "Memory management"))
        XCTAssertEqual(database.count, 1)
    }

    func testMethodReferenceLoaderReportsADecodingFailureAsFailed() {
        let database = Database()
        let loader = MethodReferenceLoaderSample.ModelLoader<Article>(
            url: malformedURL, session: session, database: database)
        loader.load()
        XCTAssertTrue(
            runMainRunLoop(timeout: 10) {
                if case .failed = loader.state { return true } else { return false }
            })
        XCTAssertEqual(database.count, 0, "nothing decoded, nothing stored")
    }
}
