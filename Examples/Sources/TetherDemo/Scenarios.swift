import Foundation
import Synchronization
import Tether
import TetherExtras

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The seeds' scenarios, run together against one server and one database, on the main thread
/// (which runs the main run loop while it waits).
final class Scenarios {
    private let report: Report
    private let catalog: Catalog
    private let store: ItemStore
    private let server: ItemServer
    private let session: URLSession
    private let clock = ContinuousClock()
    /// The stock each item should end with, from the burst.
    private var expectedStock: [Int: Int] = [:]

    /// How many lines a list prints before it summarises the rest.
    private static let listed = 12
    /// How often the dashboard's clock ticks.
    private static let tickInterval = 0.05

    init(report: Report, catalog: Catalog, store: ItemStore, server: ItemServer, session: URLSession) {
        self.report = report
        self.catalog = catalog
        self.store = store
        self.server = server
        self.session = session
    }

    func run() {
        let counters = DashboardCounters()
        var dashboard: Dashboard? = startDashboard(counters)
        let dashboardStarted = clock.now

        let stored = load()
        burst(into: stored)

        report.section("The dashboard released")
        let changes = stored.count + burstSize(stored)
        runMainLoop(until: { counters.changes >= changes }, timeout: .seconds(2))
        report.check(counters.ticks > 0, "the clock ticked \(counters.ticks) times while the dashboard lived")
        report.check(
            counters.changes == changes,
            "the observer saw all \(changes) changes the store announced (\(counters.changes))")
        weak let released = dashboard
        let liveBefore = SubscriptionLedger.liveCount
        dashboard = nil
        report.record("dashboard lifetime", clock.now - dashboardStarted)
        say("  dashboard = nil")
        report.check(released == nil, "nothing else held the dashboard: it is gone")
        if SubscriptionLedger.isEnabled {
            runMainLoop(until: { SubscriptionLedger.liveCount == 0 }, timeout: .seconds(1))
            say("  live subscriptions: \(liveBefore) before the release, \(SubscriptionLedger.liveCount) after")
            report.check(SubscriptionLedger.liveCount == 0, "its clock and observer ended with its lifetime")
        }
        let ticks = counters.ticks
        let changesSeen = counters.changes
        NotificationCenter.default.post(name: ItemStore.didChange, object: nil)
        runMainLoop(for: .seconds(Self.tickInterval * 4))
        report.check(counters.ticks == ticks, "the clock stopped: no tick in \(Int(Self.tickInterval * 4000)) ms")
        report.check(counters.changes == changesSeen, "the observer is gone: a new notification went unseen")
    }

    // MARK: The dashboard

    private func startDashboard(_ counters: DashboardCounters) -> Dashboard {
        report.section("A dashboard: a Timer clock and a NotificationCenter observer bound to its lifetime")
        let liveBefore = SubscriptionLedger.liveCount
        let dashboard = Dashboard(counters: counters, interval: Self.tickInterval)
        if SubscriptionLedger.isEnabled {
            let made = SubscriptionLedger.liveCount - liveBefore
            say("  live subscriptions: \(SubscriptionLedger.liveCount)")
            report.check(made >= 2, "the clock and the observer are subscribed (\(made) subscription objects)")
        } else {
            say("  (release build: the ledger is compiled out)")
        }
        return dashboard
    }

    // MARK: Loading

    /// Loads every item with its own ModelLoader and checks the outcome.
    /// - Returns: What was stored, by item id.
    private func load() -> [Int: Stored<Item>] {
        report.section("Loading \(catalog.count) items: dataTaskPublisher → decode → flatMap(store) → @Published state")
        let loaders = catalog.ids.map { id in
            ModelLoader<Item>(url: server.url(of: id), session: session, database: store)
        }
        let watching = CancellableBag()
        var transitions: [Int: [String]] = [:]
        var finished: [(id: Int, elapsed: Duration)] = []
        let started = clock.now
        for (id, loader) in zip(catalog.ids, loaders) {
            loader.$state.dropFirst().sink { [clock] state in
                transitions[id, default: []].append(Self.name(of: state))
                if state.isFinal {
                    let elapsed = clock.now - started
                    finished.append((id, elapsed))
                    if finished.count <= Self.listed {
                        say("  item \(id): \(Self.describe(state)) after \(elapsed.milliseconds)")
                    }
                }
            }
            .store(in: watching)
        }
        for loader in loaders {
            loader.load()
        }
        let allFinal = runMainLoop(until: { loaders.allSatisfy { $0.state.isFinal } }, timeout: .seconds(15))
        report.record("loading \(catalog.count) items", clock.now - started)
        if finished.count > Self.listed {
            say("  … and \(finished.count - Self.listed) more")
        }

        report.check(allFinal, "every loader finished, loaded or failed")
        report.check(
            server.requestCount == catalog.count,
            "the server answered \(server.requestCount) of \(catalog.count) requests")
        report.check(
            transitions.values.allSatisfy { $0.count == 2 && $0[0] == "loading" },
            "each state went idle → loading → loaded or failed")
        var stored: [Int: Stored<Item>] = [:]
        var failedIDs: [Int] = []
        var decodingFailure = false
        for (id, loader) in zip(catalog.ids, loaders) {
            switch loader.state {
            case .loaded(let item): stored[id] = item
            case .failed(let error):
                failedIDs.append(id)
                decodingFailure = error is DecodingError
            case .idle, .loading: break
            }
        }
        report.check(
            failedIDs == [catalog.malformedID] && decodingFailure,
            "only item \(catalog.malformedID), the malformed one, is .failed, with a DecodingError")
        report.check(
            stored.values.sorted { $0.model.id < $1.model.id }.map(\.model) == catalog.wellFormed,
            "the \(stored.count) loaded items are the server's, decoded")
        let slowIDs = Set(catalog.ids.filter(catalog.isSlow))
        let slowTimes = finished.filter { slowIDs.contains($0.id) }.map(\.elapsed)
        report.check(
            slowTimes.allSatisfy { $0 >= Catalog.slowDelay },
            "the slow items (\(slowIDs.sorted().map(String.init).joined(separator: ", "))) arrived after \(Catalog.slowDelay.milliseconds)"
        )
        say("  arrival order: \(finished.map { String($0.id) }.joined(separator: ", "))")
        if let fastest = finished.map(\.elapsed).min(), let slowest = finished.map(\.elapsed).max() {
            report.record("fastest item", fastest)
            report.record("slowest item", slowest)
        }
        do {
            let rows = try store.rows()
            let rowsMatch = rows.count == stored.count && rows.allSatisfy { stored[$0.itemID]?.row == $0.row }
            report.check(rowsMatch, "the database holds exactly the \(stored.count) stored rows")
        } catch {
            report.check(false, "the database can be read back: \(error)")
        }
        if SubscriptionLedger.isEnabled {
            say("  live subscriptions while the loaders and the dashboard live: \(SubscriptionLedger.liveCount)")
        }
        watching.cancel()
        return stored
    }

    private static func name(of state: ModelLoader<Item>.State) -> String {
        switch state {
        case .idle: "idle"
        case .loading: "loading"
        case .loaded: "loaded"
        case .failed: "failed"
        }
    }

    private static func describe(_ state: ModelLoader<Item>.State) -> String {
        switch state {
        case .idle: return "idle"
        case .loading: return "loading"
        case .loaded(let stored): return "loaded \(stored.model.name), stored in row \(stored.row)"
        case .failed(let error as DecodingError):
            if case .dataCorrupted(let context) = error {
                return "failed: DecodingError.dataCorrupted (\(context.debugDescription))"
            }
            return "failed: \(error)"
        case .failed(let error): return "failed: \(error)"
        }
    }

    // MARK: The burst

    private func burstSize(_ stored: [Int: Stored<Item>]) -> Int {
        stored.isEmpty ? 0 : max(50, catalog.count * 20)
    }

    /// Sends a burst of stock changes through a buffer into `asyncSink`, which writes each to the
    /// database before it asks for the next.
    private func burst(into stored: [Int: Stored<Item>]) {
        let count = burstSize(stored)
        report.section("A burst of \(count) stock changes, written one at a time by asyncSink")
        guard count > 0 else {
            report.check(false, "there are stored items to change")
            return
        }
        let itemIDs = stored.keys.sorted()
        let changes = (0..<count).map { number in
            StockChange(itemID: itemIDs[number % itemIDs.count], delta: number % 7 + 1)
        }
        for change in changes {
            expectedStock[change.itemID, default: 0] += change.delta
        }

        let probe = BurstProbe()
        let bar = ProgressBar(label: "stock changes", total: count)
        let store = self.store
        let events = PassthroughSubject<StockChange, Never>()
        let started = clock.now
        let subscription =
            events
            .buffer(size: count, prefetch: .keepFull, whenFull: .dropNewest)
            .asyncSink(receiveCompletion: { _ in probe.finish() }) { change in
                probe.begin()
                do {
                    try await store.apply(change)
                } catch {
                    probe.record(error)
                }
                bar.update(probe.end())
            }
        for change in changes {
            events.send(change)
        }
        events.send(completion: .finished)
        say("  sent \(count) changes at once; the buffer holds them while the sink works")
        let done = runMainLoop(until: { probe.isFinished }, timeout: .seconds(30))
        let elapsed = clock.now - started
        report.record("burst of \(count) changes", elapsed)
        subscription.cancel()

        report.check(done, "the sink finished after the last change")
        report.check(probe.processed == count, "all \(count) changes were processed (\(probe.processed))")
        report.check(probe.mostAtOnce == 1, "one at a time: at most \(probe.mostAtOnce) in flight")
        report.check(probe.errors.isEmpty, "every write succeeded\(probe.errors.first.map { ": \($0)" } ?? "")")
        do {
            let stocks = Dictionary(uniqueKeysWithValues: try store.rows().map { ($0.itemID, $0.stock) })
            report.check(stocks.filter { $0.value != 0 } == expectedStock, "the stock in the database adds up")
        } catch {
            report.check(false, "the database can be read back: \(error)")
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        say(String(format: "  %.0f changes per second", Double(count) / max(seconds, 1e-9)))
    }

    // MARK: The stored data

    /// Prints what the database holds.
    func printStored() {
        do {
            let rows = try store.rows()
            say("  row  item  name                  price  stock")
            for row in rows.prefix(Self.listed) {
                let name = row.name.padding(toLength: 20, withPad: " ", startingAt: 0)
                say(String(format: "  %3lld  %4d  %@  %6.2f  %5d", row.row, row.itemID, name, row.price, row.stock))
            }
            if rows.count > Self.listed {
                say("  … and \(rows.count - Self.listed) more")
            }
            say("  \(rows.count) items stored, total stock \(rows.map(\.stock).reduce(0, +))")
        } catch {
            report.check(false, "the database can be read back: \(error)")
        }
    }
}

/// What the burst's sink did, from its tasks: how many ran at once, how many finished.
final class BurstProbe: Sendable {
    private struct State {
        var inFlight = 0
        var mostAtOnce = 0
        var processed = 0
        var errors: [String] = []
        var finished = false
    }

    private let state = Mutex(State())

    var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
    var processed: Int { state.withLock { $0.processed } }
    var errors: [String] { state.withLock { $0.errors } }
    var isFinished: Bool { state.withLock { $0.finished } }

    func begin() {
        state.withLock { state in
            state.inFlight += 1
            state.mostAtOnce = max(state.mostAtOnce, state.inFlight)
        }
    }

    /// - Returns: How many changes are done.
    func end() -> Int {
        state.withLock { state in
            state.inFlight -= 1
            state.processed += 1
            return state.processed
        }
    }

    func record(_ error: any Error) {
        state.withLock { $0.errors.append("\(error)") }
    }

    func finish() {
        state.withLock { $0.finished = true }
    }
}
