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
    private let session = makeUncachedSession()

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

    func testAResponseWithoutDataIsDeliveredWithEmptyDataAsCombineDoes() {
        let session = ScriptedSession(configuration: .ephemeral)
        let outcome = TaskOutcome()
        let cancellable = session.dataTaskPublisher(for: URL(string: "http://example.invalid/")!)
            .sink(receiveCompletion: outcome.completion, receiveValue: outcome.value)
        let response = URLResponse(
            url: URL(string: "http://example.invalid/")!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil
        )
        session.completeFirstTask(nil, response, nil)
        XCTAssertEqual(outcome.events, ["value", "finished"])
        XCTAssertEqual(outcome.outputs.first?.data, Data())
        XCTAssertTrue(outcome.outputs.first?.response === response)
        cancellable.cancel()
    }

    func testNoResponseFailsWithAnUnknownURLErrorAsCombineDoes() {
        for data in [nil, Data([1, 2])] as [Data?] {
            let session = ScriptedSession(configuration: .ephemeral)
            let outcome = TaskOutcome()
            let cancellable = session.dataTaskPublisher(for: URL(string: "http://example.invalid/")!)
                .sink(receiveCompletion: outcome.completion, receiveValue: outcome.value)
            session.completeFirstTask(data, nil, nil)
            XCTAssertEqual(outcome.events, ["failure"])
            XCTAssertEqual(outcome.errors.map(\.code), [.unknown])
            cancellable.cancel()
        }
    }

    /// Combine resumes the task on every request; Tether does too, except with
    /// FoundationNetworking (Linux), whose task registry stops the process when a resume meets
    /// the task's completion.
    func testEveryRequestResumesTheTaskExceptOnFoundationNetworkingWhereOnlyTheFirstDoes() throws {
        let session = ScriptedSession(configuration: .ephemeral)
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<URLSession.DataTaskPublisher.Output, URLError>(
            receiveSubscription: { subscription = $0 })
        session.dataTaskPublisher(for: URL(string: "http://example.invalid/")!).subscribe(subscriber)
        XCTAssertTrue(session.tasks.isEmpty)
        subscription?.request(.max(2))
        subscription?.request(.max(1))
        let task = try XCTUnwrap(session.tasks.first)
        XCTAssertEqual(session.tasks.count, 1)
        #if canImport(FoundationNetworking)
        let resumes = ["resume"]
        #else
        let resumes = ["resume", "resume"]
        #endif
        XCTAssertEqual(task.events, resumes)
        subscription?.cancel()
        XCTAssertEqual(task.events, resumes + ["cancel"])
        subscription = nil
        session.completeFirstTask(nil, nil, URLError(.cancelled))
    }
}

/// A session whose data tasks only record what is done to them; the test completes them.
private final class ScriptedSession: URLSession, @unchecked Sendable {
    private(set) var tasks: [ScriptedTask] = []
    private var completions: [@Sendable (Data?, URLResponse?, (any Error)?) -> Void] = []

    /// Completes the oldest task still running, and lets go of its handler, as a session does.
    func completeFirstTask(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        completions.removeFirst()(data, response, error)
    }

    override func dataTask(
        with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> URLSessionDataTask {
        let task = ScriptedTask()
        tasks.append(task)
        completions.append(completionHandler)
        return task
    }
}

/// A data task that records `resume` and `cancel` and does nothing else.
private final class ScriptedTask: URLSessionDataTask, @unchecked Sendable {
    private(set) var events: [String] = []

    override func resume() { events.append("resume") }

    override func cancel() { events.append("cancel") }
}
