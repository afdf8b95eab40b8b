import Foundation
import Tether
import TetherTestSupport
import TetherTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let conformancePing = Notification.Name("TetherTests.conformance.ping")

/// A `NotificationCenter.Publisher` on a private center, fed by posting notifications that
/// carry the element index. The publisher never completes, so the row ends it with
/// `prefix(while:)` on a notification without an index, which the finish posts. (Not
/// `prefix(untilOutputFrom:)`: as in Combine, its trigger's subscription outlives the stream.)
func notificationsUnderTest() -> PublisherUnderTest<Publishers.PrefixWhile<NotificationCenter.Publisher>> {
    let center = NotificationCenter()
    let publisher = center.publisher(for: conformancePing).prefix { $0.userInfo?["index"] != nil }
    return .hot(
        publisher, send: { center.post(name: conformancePing, object: nil, userInfo: ["index": $0]) },
        finish: { center.post(name: conformancePing, object: nil) })
}

/// The loopback server the data task rows request from: one per process, started on first use
/// and stopped by its own lifetime.
///
/// It answers after a short delay, so that the checks' cancels reach tasks still waiting:
/// swift-corelibs-foundation traps ("Trying to access a behaviour for a task that in not in the
/// registry") when `URLSessionTask.cancel()` races with the task's own completion.
let conformanceServer: LoopbackHTTPServer = {
    do {
        return try LoopbackHTTPServer(lifetime: 120) { _ in .init(body: Data("[0]".utf8), delay: 0.05) }
    } catch {
        preconditionFailure("the loopback server did not start: \(error)")
    }
}()

/// A session for the data task rows.
let conformanceSession = makeUncachedSession()

/// A data task for a resource the loopback server serves.
func servedDataTask() -> URLSession.DataTaskPublisher {
    conformanceSession.dataTaskPublisher(for: conformanceServer.url("/row"))
}

/// A data task that fails: nothing listens on the port of a server that has stopped.
func failingDataTask() -> URLSession.DataTaskPublisher {
    conformanceSession.dataTaskPublisher(for: closedPortURL)
}

private let closedPortURL: URL = {
    guard let server = try? LoopbackHTTPServer(lifetime: 0, respond: { _ in .init(body: Data()) }) else {
        preconditionFailure("the loopback server did not start")
    }
    server.stop()
    return server.url("/closed")
}()

extension PublisherConformance.Options {
    /// A data task delivers on the session's queue, after the subscriber's request returned.
    static var dataTask: Self {
        Self(zeroDemand: .traps, concurrentSignals: true, cancellation: .eventual, timeout: 10, quietPeriod: 0.05)
    }
}
