import Foundation
import Tether
import TetherTesting
import XCTest

final class RecordTests: TetherTestCase {
    private struct CodableError: Error, Codable, Equatable {
        var code: Int
    }

    func testPlaysBackAtTheDemandedPaceThenSendsTheRecordedCompletion() {
        let record = Record<Int, TestError>(output: [1, 2, 3], completion: .failure(TestError(id: 4)))
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        record.subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        recorder.request(.max(5))
        XCTAssertEqual(
            recorder.events,
            [.subscription, .value(1), .value(2), .value(3), .completion(.failure(TestError(id: 4)))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["[1, 2, 3]"])
    }

    func testRequestingNoneDoesNothing() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        Record<Int, Never>(output: [1, 2], completion: .finished).subscribe(recorder)
        recorder.request(.none)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        recorder.request(.none)
        XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testDescriptionAndMirrorShowThePlaybackUntilItEnds() {
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, TestError>(
            receiveSubscription: { subscription = $0 }, receiveValue: { _ in .none }, receiveCompletion: { _ in })
        let record = Record<Int, TestError>(output: [1, 2], completion: .failure(TestError(id: 3)))
        record.subscribe(subscriber)
        XCTAssertEqual(subscription.map { String(describing: $0) }, "[1, 2]")
        XCTAssertEqual(
            subscription.map(mirrorSummary), ["sequence: [1, 2]", "completion: failure(\(TestError(id: 3)))"])
        subscription?.request(.max(2))
        XCTAssertEqual(subscription.map { String(describing: $0) }, "Cancelled Events", "completed")
        XCTAssertEqual(subscription.map(mirrorSummary), ["sequence: []", "completion: failure(\(TestError(id: 3)))"])

        record.subscribe(subscriber)
        subscription?.cancel()
        XCTAssertEqual(subscription.map { String(describing: $0) }, "Cancelled Events", "cancelled")
    }

    func testUnlimitedDemandPlaysEverything() {
        let recorder = RecordingSubscriber<String, Never>()
        Record<String, Never>(output: ["a", "b"], completion: .finished).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value("a"), .value("b"), .completion(.finished)])
    }

    func testDemandReturnedFromReceiveIsAdded() {
        let recorder = RecordingSubscriber<Int, Never>(demand: .max(1), demandPerValue: { $0 < 2 ? .max(1) : .none })
        Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    func testEmptyRecordingCompletesAtOnceWithTheEmptySubscription() {
        let recorder = RecordingSubscriber<Int, TestError>(demand: .none)
        Record<Int, TestError>(output: [], completion: .failure(TestError(id: 1))).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .completion(.failure(TestError(id: 1)))])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Empty"])
    }

    func testEverySubscriberGetsItsOwnPlayback() {
        let record = Record<Int, Never>(output: [1, 2], completion: .finished)
        let slow = RecordingSubscriber<Int, Never>(demand: .max(1))
        let fast = RecordingSubscriber<Int, Never>()
        record.subscribe(slow)
        record.subscribe(fast)
        XCTAssertEqual(slow.events, [.subscription, .value(1)])
        XCTAssertEqual(fast.events, [.subscription, .value(1), .value(2), .completion(.finished)])
        slow.cancel()
    }

    func testInteractiveRecording() {
        let record = Record<Int, TestError> { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .failure(TestError(id: 7)))
        }
        XCTAssertEqual(record.recording.output, [1, 2])
        XCTAssertEqual(record.recording.completion, .failure(TestError(id: 7)))
        let recorder = RecordingSubscriber<Int, TestError>()
        Record(recording: record.recording).subscribe(recorder)
        XCTAssertEqual(
            recorder.events, [.subscription, .value(1), .value(2), .completion(.failure(TestError(id: 7)))])
    }

    func testRecordingWithoutACompletionPlaysBackAsFinished() {
        var recording = Record<Int, Never>.Recording()
        recording.receive(5)
        XCTAssertEqual(recording.completion, .finished)
        let recorder = RecordingSubscriber<Int, Never>()
        Record(recording: recording).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(5), .completion(.finished)])
    }

    func testCancelStopsPlaybackAndReleasesTheSubscriber() {
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let recorder = RecordingSubscriber<Int, Never>(demand: .max(1))
            weakRecorder = recorder
            Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(recorder)
            subscription = recorder.subscription
            XCTAssertEqual(recorder.events, [.subscription, .value(1)])
        }
        XCTAssertNotNil(weakRecorder, "a playing subscription holds its subscriber")
        subscription?.cancel()
        XCTAssertNil(weakRecorder, "a cancelled subscription must let go of its subscriber")
        subscription?.request(.max(1))
        subscription = nil
    }

    func testCancelFromInsideReceiveStopsPlayback() {
        var subscription: (any Subscription)?
        var received: [Int] = []
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0; $0.request(.unlimited)
            },
            receiveValue: { value in
                received.append(value)
                if value == 2 { subscription?.cancel(); subscription = nil }
                return .none
            },
            receiveCompletion: { _ in received.append(-1) })
        Record<Int, Never>(output: [1, 2, 3], completion: .finished).subscribe(subscriber)
        XCTAssertEqual(received, [1, 2])
    }

    func testRecordingRoundTripsThroughCodable() throws {
        let failed = Record<Int, CodableError>(output: [1, 2], completion: .failure(CodableError(code: 3)))
        let data = try JSONEncoder().encode(failed)
        let decoded = try JSONDecoder().decode(Record<Int, CodableError>.self, from: data)
        XCTAssertEqual(decoded.recording.output, [1, 2])
        XCTAssertEqual(decoded.recording.completion, .failure(CodableError(code: 3)))

        let finished = Record<String, CodableError>.Recording(output: ["z"])
        let decodedRecording = try JSONDecoder().decode(
            Record<String, CodableError>.Recording.self, from: try JSONEncoder().encode(finished))
        XCTAssertEqual(decodedRecording.output, ["z"])
        XCTAssertEqual(decodedRecording.completion, .finished)
    }

    func testDecodedRecordingIsComplete() throws {
        let json = Data(#"{"output":[1],"completion":{"success":true}}"#.utf8)
        let recording = try JSONDecoder().decode(Record<Int, CodableError>.Recording.self, from: json)
        let recorder = RecordingSubscriber<Int, CodableError>()
        Record(recording: recording).subscribe(recorder)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }
}
