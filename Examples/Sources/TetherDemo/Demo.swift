import Foundation
import Synchronization
import Tether
import TetherExtras

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One run of the demonstration: every step prints what happened and checks it.
struct Demo {
    let options: Options
    private let report = Report()
    private let clock = ContinuousClock()

    init(options: Options) {
        self.options = options
    }

    /// Runs everything and returns the exit code: 0 when every check passed, 1 otherwise or
    /// when the server or the database could not be set up.
    func run() -> Int32 {
        let started = clock.now
        let catalog = Catalog(count: options.items)
        say("Tether demonstration: \(catalog.count) items, one malformed, every third slow.")

        report.section("The ledger of live subscriptions, before")
        if SubscriptionLedger.isEnabled {
            let before = SubscriptionLedger.liveCount
            say("  live subscriptions before: \(before)")
            report.check(before == 0, "nothing is alive before the demonstration starts")
        } else {
            say("  live subscriptions before: unknown (release build: the ledger is compiled out)")
        }

        report.timed("basics") { Basics(report: report).run() }

        report.section("A database and a server")
        let file: DatabaseFile
        let store: ItemStore
        let server: ItemServer
        do throws(DatabaseFile.PathError) {
            file = try DatabaseFile(destination: options.database)
        } catch {
            return fail(error.description)
        }
        do {
            store = try ItemStore(path: file.workingPath)
        } catch {
            file.discard()
            return fail("cannot create the database in \(file.workingPath): \(error)")
        }
        do throws(ItemServer.StartError) {
            server = try report.timed("server start") { () throws(ItemServer.StartError) in
                try ItemServer(catalog: catalog, port: options.port)
            }
        } catch {
            try? store.close()
            file.discard()
            return fail(error.description)
        }
        say(
            "  SQLite database: \(options.database.map { "\($0) (written as \(file.workingPath) until the end)" } ?? "\(file.workingPath) (temporary)")"
        )
        say("  HTTP server: http://127.0.0.1:\(server.port)/items/1 … /items/\(catalog.count)")

        // No URL cache: on Linux, cancelling a task just after it starts on a session with a
        // cache can stop the process inside FoundationNetworking.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        let scenarios = Scenarios(report: report, catalog: catalog, store: store, server: server, session: session)
        scenarios.run()

        // The session's idle keep-alive connections would hold the server's stop up.
        session.invalidateAndCancel()
        report.timed("server stop") { server.stop() }

        report.section("The ledger of live subscriptions, after")
        if SubscriptionLedger.isEnabled {
            // Receiving on the main queue may still hold a hop that was cancelled: let it drain.
            runMainLoop(until: { SubscriptionLedger.liveCount == 0 }, timeout: .seconds(1))
            let after = SubscriptionLedger.liveCount
            say("  live subscriptions after: \(after)")
            for entry in SubscriptionLedger.snapshot() {
                say("    still alive: \(entry)")
            }
            report.check(after == 0, "every subscription was released")
        } else {
            say("  live subscriptions after: unknown (release build: the ledger is compiled out)")
        }

        report.section("What was stored")
        scenarios.printStored()
        do {
            try store.close()
        } catch {
            report.check(false, "the database closed: \(error)")
        }

        report.section("Timings")
        let total = clock.now - started
        for (name, duration) in report.timings + [("whole run", total)] {
            say("  \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(duration.milliseconds)")
        }

        guard report.failures == 0 else {
            file.discard()
            say(
                "\n\(report.failures) check(s) failed; \(options.database.map { "\($0) was left untouched" } ?? "the temporary database was removed")."
            )
            return 1
        }
        do throws(DatabaseFile.PathError) {
            if let kept = try file.finish() {
                say("\nDatabase written to \(kept).")
            } else {
                say("\nThe temporary database was removed (pass --database PATH to keep one).")
            }
        } catch {
            return fail(error.description)
        }
        say("All checks passed.")
        return 0
    }

    private func fail(_ message: String) -> Int32 {
        fflush(nil)
        FileHandle.standardError.write(Data("tether-demo: error: \(message)\n".utf8))
        return 1
    }
}
