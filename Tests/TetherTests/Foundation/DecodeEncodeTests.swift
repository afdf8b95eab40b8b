import Foundation
import Tether
import TetherTesting
import XCTest

private struct Point: Codable, Equatable, CustomStringConvertible {
    var x: Int
    var y: Int
    var description: String { "(\(x), \(y))" }
}

/// Encodes only while `valid`; otherwise throws.
private struct Fragile: Encodable {
    var valid: Bool
    func encode(to encoder: any Encoder) throws {
        guard valid else { throw TestError(id: 7) }
        var container = encoder.singleValueContainer()
        try container.encode(1)
    }
}

final class DecodeEncodeTests: TetherTestCase {
    private func json(_ text: String) -> Data { Data(text.utf8) }

    func testDecodePublishesEachDecodedValueThenFinishes() {
        let publisher = RecordingPublisher<Data, Never>()
        let recorder = RecordingSubscriber<Point, any Error>()
        publisher.decode(type: Point.self, decoder: JSONDecoder()).subscribe(recorder)

        XCTAssertEqual(publisher.send(json(#"{"x":1,"y":2}"#)), [.none])
        XCTAssertEqual(publisher.send(json(#"{"x":3,"y":4}"#)), [.none])
        publisher.send(completion: .finished)

        XCTAssertEqual(
            recorder.history, [".subscription", ".value((1, 2))", ".value((3, 4))", ".completion(.finished)"])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Decode"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited)])
    }

    func testDecodingErrorCancelsUpstreamAndFailsWithTheDecoderError() {
        let publisher = RecordingPublisher<Data, Never>()
        let recorder = RecordingSubscriber<Point, any Error>()
        publisher.decode(type: Point.self, decoder: JSONDecoder()).subscribe(recorder)

        _ = publisher.send(json(#"{"x":1,"y":2}"#))
        _ = publisher.send(json(#"{"x":"one"}"#))
        _ = publisher.send(json(#"{"x":5,"y":6}"#))

        XCTAssertEqual(recorder.values, [Point(x: 1, y: 2)])
        guard case .failure(let error) = recorder.completion else {
            return XCTFail("expected a failure, got \(recorder.history)")
        }
        XCTAssertTrue(error is DecodingError, "\(error)")
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testDecodeRepublishesUpstreamFailureAndPassesDemandThrough() {
        let publisher = RecordingPublisher<Data, TestError>()
        let recorder = RecordingSubscriber<Point, any Error>(demand: .max(1), demandPerValue: { _ in .max(2) })
        publisher.decode(type: Point.self, decoder: JSONDecoder()).subscribe(recorder)

        XCTAssertEqual(publisher.send(json(#"{"x":1,"y":1}"#)), [.max(2)])
        publisher.send(completion: .failure(TestError(id: 4)))

        XCTAssertEqual(recorder.history, [".subscription", ".value((1, 1))", ".completion(.failure(TestError(4)))"])
        XCTAssertEqual(publisher.subscription?.events, [.requested(.max(1))])
    }

    func testEncodeThenDecodeRoundTrips() {
        let recorder = RecordingSubscriber<Point, any Error>()
        [Point(x: 1, y: 2), Point(x: -3, y: 0)].publisher
            .encode(encoder: JSONEncoder())
            .decode(type: Point.self, decoder: JSONDecoder())
            .subscribe(recorder)

        XCTAssertEqual(
            recorder.history, [".subscription", ".value((1, 2))", ".value((-3, 0))", ".completion(.finished)"])
    }

    func testEncodePublishesTheEncoderOutput() {
        let recorder = RecordingSubscriber<Data, any Error>()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        Just(Point(x: 7, y: 8)).encode(encoder: encoder).subscribe(recorder)

        XCTAssertEqual(recorder.values.map { String(decoding: $0, as: UTF8.self) }, [#"{"x":7,"y":8}"#])
        XCTAssertEqual(recorder.subscriptionDescriptions, ["Encode"])
        guard case .finished = recorder.completion else { return XCTFail("\(recorder.history)") }
    }

    func testEncodingErrorCancelsUpstreamAndFailsWithTheEncoderError() {
        let publisher = RecordingPublisher<Fragile, Never>()
        let recorder = RecordingSubscriber<Data, any Error>()
        publisher.encode(encoder: JSONEncoder()).subscribe(recorder)

        _ = publisher.send(Fragile(valid: true))
        _ = publisher.send(Fragile(valid: false))
        _ = publisher.send(Fragile(valid: true))

        XCTAssertEqual(recorder.values, [Data("1".utf8)])
        XCTAssertEqual(recorder.history.last, ".completion(.failure(TestError(7)))")
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
    }

    func testCancelReleasesTheSubscriberAndCancelsUpstream() {
        let publisher = RecordingPublisher<Data, Never>()
        weak var weakRecorder: RecordingSubscriber<Point, any Error>?
        do {
            let recorder = RecordingSubscriber<Point, any Error>()
            weakRecorder = recorder
            publisher.decode(type: Point.self, decoder: JSONDecoder()).subscribe(recorder)
            recorder.cancel()
        }
        XCTAssertNotNil(weakRecorder, "held with the subscription, as Combine holds it")
        XCTAssertEqual(publisher.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(publisher.send(json(#"{"x":1,"y":2}"#)), [.none])
        publisher.releaseSubscribers()
        XCTAssertNil(weakRecorder)
    }
}
