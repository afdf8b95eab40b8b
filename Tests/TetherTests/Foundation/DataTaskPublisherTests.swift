import Foundation
import Synchronization
import Tether
import TetherTestSupport
import TetherTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private struct Model: Codable, Equatable {
    var name: String
}

/// The outcome of one data task subscription, as seen by a sink.
private final class TaskOutcome: @unchecked Sendable {
    private let log = Mutex<[String]>([])
    private let results = Mutex<[(data: Data, response: URLResponse)]>([])
    private let failures = Mutex<[URLError]>([])

    var events: [String] { log.withLock { $0 } }
    var outputs: [(data: Data, response: URLResponse)] { results.withLock { $0 } }
    var errors: [URLError] { failures.withLock { $0 } }

    func value(_ output: (data: Data, response: URLResponse)) {
        results.withLock { $0.append(output) }
        log.withLock { $0.append("value") }
    }

    func completion(_ completion: Subscribers.Completion<URLError>) {
        switch completion {
        case .finished:
            log.withLock { $0.append("finished") }
        case .failure(let error):
            failures.withLock { $0.append(error) }
            log.withLock { $0.append("failure") }
        }
    }
}

final class DataTaskPublisherTests: TetherTestCase {
    private let session = URLSession(configuration: .ephemeral)

    override func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    private func server(delay: TimeInterval = 0) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { path in
            .init(body: Data(#"{"name":"\#(path)"}"#.utf8), delay: delay)
        }
    }

    func testPublishesDataAndResponseThenFinishes() throws {
        let server = try server()
        defer { server.stop() }
        let outcome = TaskOutcome()
        let cancellable = session.dataTaskPublisher(for: server.url("/model.json"))
            .sink(receiveCompletion: outcome.completion, receiveValue: outcome.value)
        XCTAssertTrue(waitUntil(timeout: 10) { outcome.events.count == 2 })

        XCTAssertEqual(outcome.events, ["value", "finished"])
        XCTAssertEqual(
            outcome.outputs.first.map { String(decoding: $0.data, as: UTF8.self) }, #"{"name":"/model.json"}"#)
        XCTAssertEqual((outcome.outputs.first?.response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(outcome.outputs.first?.response.url, server.url("/model.json"))
        XCTAssertEqual(server.requestedPaths, ["/model.json"])
        cancellable.cancel()
    }

    func testARequestIsPerformedAsGiven() throws {
        let server = try server()
        defer { server.stop() }
        var request = URLRequest(url: server.url("/by-request"))
        request.setValue("yes", forHTTPHeaderField: "X-Tether")
        let publisher = session.dataTaskPublisher(for: request)
        XCTAssertEqual(publisher.request, request)
        XCTAssertTrue(publisher.session === session)

        let outcome = TaskOutcome()
        let cancellable = publisher.sink(receiveCompletion: outcome.completion, receiveValue: outcome.value)
        XCTAssertTrue(waitUntil(timeout: 10) { outcome.events.count == 2 })
        XCTAssertEqual(server.requestedPaths, ["/by-request"])
        cancellable.cancel()
    }

    func testTheTaskStartsOnTheFirstDemandOnly() throws {
        let server = try server()
        defer { server.stop() }
        let recorder = RecordingSubscriber<(data: Data, response: URLResponse), URLError>(demand: .none)
        session.dataTaskPublisher(for: server.url("/lazy")).subscribe(recorder)
        usleep(200_000)
        XCTAssertEqual(server.requestedPaths, [], "no demand, no request")
        XCTAssertEqual(recorder.subscriptionDescriptions, ["DataTaskPublisher"])

        recorder.request(.max(1))
        XCTAssertTrue(waitUntil(timeout: 10) { recorder.completion != nil })
        XCTAssertEqual(recorder.events.count, 3, "subscription, value, completion")
        XCTAssertEqual(server.requestedPaths, ["/lazy"])
    }

    func testTheMirrorShowsTheTaskTheSubscriberThePublisherAndTheDemandUntilTheEnd() throws {
        let server = try server(delay: 10)
        defer { server.stop() }
        let recorder = RecordingSubscriber<(data: Data, response: URLResponse), URLError>(demand: .none)
        let publisher = session.dataTaskPublisher(for: server.url("/mirrored"))
        publisher.subscribe(recorder)
        let subscription = try XCTUnwrap(recorder.subscription)
        func children() -> [String] {
            Mirror(reflecting: subscription).children.map { "\($0.label ?? "_")=\(String(describing: $0.value))" }
        }
        let before = children()
        XCTAssertEqual(before.map { $0.prefix { $0 != "=" } }, ["task", "downstream", "parent", "demand"])
        XCTAssertEqual(before.first, "task=nil")
        XCTAssertEqual(before.last, "demand=max(0)")
        XCTAssertEqual(before.dropFirst(2).first, "parent=\(String(describing: Optional(publisher)))")

        recorder.request(.max(2))
        let running = children()
        XCTAssertNotEqual(running.first, "task=nil")
        XCTAssertEqual(running.last, "demand=max(2)")

        recorder.cancel()
        XCTAssertEqual(children(), ["task=nil", "downstream=nil", "parent=nil", "demand=max(0)"])
    }

    func testCancellingTheSubscriptionCancelsTheDataTask() throws {
        let server = try server(delay: 10)
        defer { server.stop() }
        weak var weakRecorder: RecordingSubscriber<(data: Data, response: URLResponse), URLError>?
        do {
            let recorder = RecordingSubscriber<(data: Data, response: URLResponse), URLError>()
            weakRecorder = recorder
            session.dataTaskPublisher(for: server.url("/slow")).subscribe(recorder)
            XCTAssertTrue(
                waitUntil(timeout: 10) { server.requestedPaths == ["/slow"] }, "the request reached the server")
            recorder.cancel()
            XCTAssertEqual(recorder.events.count, 1, "nothing after the cancel: \(recorder.events.count)")
        }
        XCTAssertNil(weakRecorder, "cancel releases the subscriber")
        XCTAssertTrue(waitUntil(timeout: 5) { server.hangUps == 1 }, "the client hung up: the task was cancelled")
    }

    func testAConnectionFailureFailsWithAURLError() throws {
        let server = try server()
        let url = server.url("/gone")
        server.stop()
        usleep(100_000)
        let outcome = TaskOutcome()
        let cancellable = session.dataTaskPublisher(for: url)
            .sink(receiveCompletion: outcome.completion, receiveValue: outcome.value)
        XCTAssertTrue(waitUntil(timeout: 10) { !outcome.events.isEmpty })
        XCTAssertEqual(outcome.events, ["failure"])
        XCTAssertEqual(outcome.errors.first?.code, .cannotConnectToHost)
        cancellable.cancel()
    }

    func testDataDecodesIntoAModel() throws {
        let server = try server()
        defer { server.stop() }
        let models = Mutex<[Model]>([])
        let done = expectation(description: "finished")
        let cancellable = session.dataTaskPublisher(for: server.url("/decoded"))
            .map(\.data)
            .decode(type: Model.self, decoder: JSONDecoder())
            .sink(
                receiveCompletion: { completion in
                    if case .finished = completion { done.fulfill() }
                },
                receiveValue: { model in models.withLock { $0.append(model) } })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(models.withLock { $0 }, [Model(name: "/decoded")])
        cancellable.cancel()
    }
}
