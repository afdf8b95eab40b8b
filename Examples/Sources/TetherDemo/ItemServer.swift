import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A real HTTP server on 127.0.0.1 serving the catalog as JSON at `/items/<id>`: slow items
/// answer after ``Catalog/slowDelay``, and the malformed one sends JSON cut short.
final class ItemServer: Sendable {
    /// Why the server could not start, in words for the command line.
    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    private let server: HTTPServer
    private let running: Task<Void, Never>
    /// The error `run()` ended with, once it has.
    private let ended = Shared<(any Error)?>(nil)
    /// Requests served, by item id.
    private let served = Shared<[Int: Int]>([:])

    /// The port the server listens on.
    let port: UInt16

    /// The address of one item.
    func url(of id: Int) -> URL {
        URL(string: "http://127.0.0.1:\(port)/items/\(id)")!
    }

    /// How many requests the server has answered.
    var requestCount: Int { served.withLock { $0.values.reduce(0, +) } }

    /// Starts listening on `port` (0 for any free one) and returns once the server accepts
    /// connections, or throws a ``StartError`` that says why it cannot.
    init(catalog: Catalog, port requested: UInt16) throws(StartError) {
        let address: sockaddr_in
        do {
            address = try .inet(ip4: "127.0.0.1", port: requested)
        } catch {
            throw StartError(description: "cannot make the address 127.0.0.1:\(requested): \(error)")
        }
        let server = HTTPServer(address: address, timeout: 5, logger: .disabled)
        self.server = server
        let served = self.served
        let ended = self.ended
        running = Task {
            await server.appendRoute("GET /items/*") { request in
                guard let id = Int(request.path.split(separator: "/").last ?? ""), catalog.ids.contains(id) else {
                    return HTTPResponse(statusCode: .notFound)
                }
                served.withLock { $0[id, default: 0] += 1 }
                if catalog.isSlow(id) {
                    try await Task.sleep(for: Catalog.slowDelay)
                }
                let body: Data
                if id == catalog.malformedID {
                    body = Data(#"{"id":\#(id),"name":"\#(catalog.item(id).name)","price":"#.utf8)
                } else {
                    body = try JSONEncoder().encode(catalog.item(id))
                }
                return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
            }
            do {
                try await server.run()
            } catch {
                ended.withLock { $0 = error }
            }
        }
        // `waitUntilListening` would wait out its whole timeout when binding fails, so watch both.
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            if let error = ended.value {
                throw StartError(description: Self.explain(error, port: requested))
            }
            if let address = Self.blockingListeningAddress(server), case .ip4(_, let port) = address {
                self.port = port
                return
            }
            guard ContinuousClock.now < deadline else {
                running.cancel()
                throw StartError(description: "the server did not start listening within 5 seconds")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Stops listening and waits until the server has closed its connections.
    func stop() {
        let server = self.server
        let running = self.running
        let stopped = DispatchSemaphore(value: 0)
        Task {
            // Every request has been answered by now: nothing is cut short.
            await server.stop(timeout: 0)
            await running.value
            stopped.signal()
        }
        stopped.wait()
    }

    private static func blockingListeningAddress(_ server: HTTPServer) -> Socket.Address? {
        let result = Shared<Socket.Address?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let address = await server.listeningAddress
            result.withLock { $0 = address }
            done.signal()
        }
        done.wait()
        return result.value
    }

    private static func explain(_ error: any Error, port: UInt16) -> String {
        if case SocketError.failed(let call, let code, let message) = error, call.lowercased() == "bind" {
            if code == EADDRINUSE {
                return "port \(port) on 127.0.0.1 is already in use (\(message)); "
                    + "choose another with --port, or --port 0 for any free port"
            }
            return "cannot listen on 127.0.0.1:\(port): \(message)"
        }
        return "the server failed to start: \(error.localizedDescription)"
    }
}
