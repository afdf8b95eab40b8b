import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, for tests of code that performs real requests.
///
/// It listens on a port the system picks, answers every request with what `respond` returns
/// for its path (after the response's delay), and closes each connection after one response.
/// It stops when ``stop()`` is called or its `lifetime` runs out, whichever comes first, so a
/// test that forgets to stop it does not leave it running. Each connection is served on its own
/// thread; while a delayed response waits, the server watches for the client hanging up, which
/// is how a test sees that a request was cancelled.
///
/// ```swift
/// let server = try LoopbackHTTPServer { _ in .init(body: Data("{}".utf8)) }
/// defer { server.stop() }
/// let url = server.url("/model.json")
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// What the server sends back for one request.
    public struct Response: Sendable {
        /// The HTTP status code.
        public var status: Int
        /// The body.
        public var body: Data
        /// How long to wait before answering.
        public var delay: TimeInterval

        /// Creates a response.
        /// - Parameters:
        ///   - status: The HTTP status code; 200 unless told.
        ///   - body: The body.
        ///   - delay: How long to wait before answering; none unless told.
        public init(status: Int = 200, body: Data, delay: TimeInterval = 0) {
            self.status = status
            self.body = body
            self.delay = delay
        }
    }

    private struct Log {
        var paths: [String] = []
        var hangUps = 0
        var stopped = false
    }

    /// The port the server listens on.
    public let port: UInt16

    private let listener: Int32
    private let log = Mutex(Log())
    private let respond: @Sendable (String) -> Response
    /// Signalled once the accept loop has closed the listening socket.
    private let listenerClosed = DispatchSemaphore(value: 0)

    /// Starts a server on 127.0.0.1.
    /// - Parameters:
    ///   - lifetime: The longest the server runs, in seconds, if nobody stops it.
    ///   - respond: What to answer for a request path (such as `/model.json`).
    public init(lifetime: TimeInterval = 20, respond: @escaping @Sendable (String) -> Response) throws {
        self.respond = respond
        listener = try Self.openListener()
        port = try Self.boundPort(of: listener)
        let deadline = Date(timeIntervalSinceNow: lifetime)
        Thread { [self] in acceptLoop(until: deadline) }.start()
    }

    /// The URL of `path` on this server.
    /// - Parameter path: A path starting with `/`.
    /// - Returns: `http://127.0.0.1:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The paths requested so far, in the order the requests arrived.
    public var requestedPaths: [String] { log.withLock { $0.paths } }

    /// How many clients hung up before their delayed response was sent.
    public var hangUps: Int { log.withLock { $0.hangUps } }

    /// Stops accepting connections, and returns once the listening socket is closed: from then
    /// on a connection to the port is refused. Connections being served end at their next check.
    public func stop() {
        log.withLock { $0.stopped = true }
        // The accept loop sees the flag within one wait of 20 ms; the timeout only bounds a
        // starved thread. Signalled again, so that every later `stop()` returns at once.
        _ = listenerClosed.wait(timeout: .now() + 5)
        listenerClosed.signal()
    }

    private var isStopped: Bool { log.withLock { $0.stopped } }

    private func acceptLoop(until deadline: Date) {
        defer {
            close(listener)
            listenerClosed.signal()
        }
        while !isStopped && Date() < deadline {
            guard Self.waitReadable(listener, milliseconds: 20) else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            Thread { [self] in serve(client, until: deadline) }.start()
        }
    }

    private func serve(_ client: Int32, until deadline: Date) {
        defer { close(client) }
        guard let path = readRequestPath(client, until: deadline) else { return }
        log.withLock { $0.paths.append(path) }
        let response = respond(path)
        let answerAt = Date(timeIntervalSinceNow: response.delay)
        while Date() < answerAt {
            if isStopped || Date() >= deadline { return }
            if Self.waitReadable(client, milliseconds: 10) {
                var byte: UInt8 = 0
                if recv(client, &byte, 1, Int32(MSG_PEEK)) <= 0 {
                    log.withLock { $0.hangUps += 1 }
                    return
                }
                // More request bytes (a body we do not read): keep them for the kernel to drop.
                usleep(10_000)
            }
        }
        var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(response.body.count)\r\n"
        head += "Connection: close\r\n\r\n"
        sendAll(client, Data(head.utf8) + response.body)
    }

    /// Reads the request head and returns the path of its request line.
    private func readRequestPath(_ client: Int32, until deadline: Date) -> String? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Data("\r\n\r\n".utf8)
        while received.range(of: end) == nil {
            if isStopped || Date() >= deadline || received.count > 65_536 { return nil }
            guard Self.waitReadable(client, milliseconds: 20) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        let line = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    private func sendAll(_ client: Int32, _ data: Data) {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = send(client, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    private static func waitReadable(_ socket: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    private static func openListener() throws -> Int32 {
        #if canImport(Darwin)
        let socketType = SOCK_STREAM
        #else
        let socketType = Int32(SOCK_STREAM.rawValue)
        #endif
        let listener = socket(AF_INET, socketType, 0)
        guard listener >= 0 else { throw ServerError("socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw ServerError("bind/listen failed: \(errno)")
        }
        return listener
    }

    private static func boundPort(of listener: Int32) throws -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard result == 0 else {
            close(listener)
            throw ServerError("getsockname failed: \(errno)")
        }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Why the server could not start.
    public struct ServerError: Error, CustomStringConvertible {
        /// What failed.
        public let description: String

        init(_ description: String) { self.description = description }
    }
}
