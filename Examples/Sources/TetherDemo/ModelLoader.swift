import Foundation
import Tether
import TetherExtras

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a ``ModelLoader`` stores what it loaded: the seed's `Database`.
protocol ModelDatabase<Model>: Sendable {
    associatedtype Model: Sendable
    /// Stores `model`; the publisher sends what was stored, then finishes.
    func store(_ model: Model) -> AnyPublisher<Stored<Model>, any Error>
}

extension ItemStore: ModelDatabase {}

/// The seed's ModelLoader (the memory-management article's last version): it loads a model with
/// `URLSession.dataTaskPublisher`, decodes it, stores it through `flatMap`, and publishes its
/// state. The pipeline captures the database, not `self`, and assigns to `self` weakly.
final class ModelLoader<Model: Decodable & Sendable>: ObservableObject {
    enum State {
        case idle
        case loading
        case loaded(Stored<Model>)
        case failed(any Error)

        /// Whether loading has ended, one way or the other.
        var isFinal: Bool {
            switch self {
            case .idle, .loading: return false
            case .loaded, .failed: return true
            }
        }
    }

    @Published private(set) var state = State.idle

    let url: URL
    private let session: URLSession
    private let decoder: JSONDecoder
    /// The database's `store`, held as a function: holding `any ModelDatabase<Model>` and calling
    /// `store` through it crashes Swift 6.3.1's optimiser in release builds (signal 6, "Source
    /// type: AnyPublisher<Stored<Item>, any Error>, Destination type: AnyPublisher<Stored<Model>,
    /// any Error>").
    private let store: @Sendable (Model) -> AnyPublisher<Stored<Model>, any Error>
    private var cancellable: AnyCancellable?

    init(url: URL, session: URLSession, decoder: JSONDecoder = .init(), database: some ModelDatabase<Model>) {
        self.url = url
        self.session = session
        self.decoder = decoder
        store = database.store
    }

    /// Starts loading; the state becomes `.loading`, then `.loaded` or `.failed` on the main
    /// queue. Loading again cancels the load under way.
    func load() {
        state = .loading

        cancellable =
            session
            .dataTaskPublisher(for: url)
            .map(\.data)
            .decode(type: Model.self, decoder: decoder)
            .flatMap(store)
            .map(State.loaded)
            .catch { error in
                Just(.failed(error))
            }
            .receive(on: DispatchQueue.main)
            .assign(to: \.state, on: self, ownership: .weak)
    }
}
