import Foundation
import Tether
import TetherTesting
import XCTest

/// The mirrors of the relays an operator hands its upstream show the children the mirror of
/// Combine's subscription for that operator shows, with the values it holds at the time.
final class RelayMirrorTests: TetherTestCase {
    /// The relay `make` hands the upstream, with its mirror as `label: value` lines before the
    /// subscription, then after `value` (1 unless given), then after the downstream's cancel.
    private func mirrors<Input, Output, Failure: Error>(
        sending value: Input, _ make: (ManualPublisher<Input, Never>) -> AnyPublisher<Output, Failure>
    ) -> [[String]] {
        let publisher = ManualPublisher<Input, Never>()
        let recorder = RecordingSubscriber<Output, Failure>(demand: .unlimited)
        make(publisher).subscribe(recorder)
        guard let relay = publisher.given else { return [] }
        var seen = [mirrorSummary(relay)]
        publisher.subscriber?.receive(subscription: RecordingSubscription())
        _ = publisher.subscriber?.receive(value)
        seen.append(mirrorSummary(relay))
        recorder.cancel()
        seen.append(mirrorSummary(relay))
        publisher.release()
        return seen
    }

    private func mirrors<Output, Failure: Error>(
        _ make: (ManualPublisher<Int, Never>) -> AnyPublisher<Output, Failure>
    ) -> [[String]] {
        mirrors(sending: 1, make)
    }

    func testScanShowsTheDownstreamAndTheRunningResult() {
        let seen = mirrors { $0.scan(10, +).eraseToAnyPublisher() }
        XCTAssertEqual(seen.map { $0.map(label) }, Array(repeating: ["downstream", "result"], count: 3))
        XCTAssertEqual(seen.map(\.last), ["result: 10", "result: 11", "result: 11"])
    }

    func testTryScanShowsTheDownstreamItsStatusAndTheRunningResult() {
        let seen = mirrors { $0.tryScan(10, +).eraseToAnyPublisher() }
        XCTAssertEqual(seen.map { $0.map(label) }, Array(repeating: ["downstream", "status", "result"], count: 3))
        let statuses = seen.map { $0.dropFirst().first ?? "" }
        XCTAssertEqual(statuses.map { $0.hasPrefix("status: awaitingSubscription") }, [true, false, false])
        XCTAssertEqual(statuses.map { $0.hasPrefix("status: subscribed") }, [false, true, false])
        XCTAssertEqual(statuses.map { $0.hasPrefix("status: terminal") }, [false, false, true])
        XCTAssertEqual(seen.map(\.last), ["result: 10", "result: 11", "result: 11"])
    }

    /// Combine's children; `last` stays `nil`, because the remembered element belongs to the
    /// serial path, which compares without a lock, and a mirror may be taken on any thread.
    func testRemoveDuplicatesShowsTheDownstreamAndLast() {
        for seen in [
            mirrors { $0.removeDuplicates().eraseToAnyPublisher() },
            mirrors { $0.tryRemoveDuplicates(by: ==).eraseToAnyPublisher() },
        ] {
            XCTAssertEqual(seen.map { $0.map(label) }, Array(repeating: ["downstream", "last"], count: 3))
            XCTAssertEqual(seen.map(\.last), ["last: nil", "last: nil", "last: nil"])
        }
    }

    func testEncodeAndDecodeShowTheDownstreamWhetherTheyFinishedAndTheUpstreamSubscription() {
        let encoded = mirrors { $0.encode(encoder: JSONEncoder()).eraseToAnyPublisher() }
        let decoded = mirrors(sending: Data("1".utf8)) {
            $0.decode(type: Int.self, decoder: JSONDecoder()).eraseToAnyPublisher()
        }
        for seen in [encoded, decoded] {
            XCTAssertEqual(
                seen.map { $0.map(label) },
                Array(repeating: ["downstream", "finished", "upstreamSubscription"], count: 3))
            XCTAssertEqual(seen.map { $0.dropFirst().first }, ["finished: false", "finished: false", "finished: true"])
            XCTAssertEqual(seen.map { $0.last == "upstreamSubscription: nil" }, [true, false, true])
        }
    }

    func testFilteringAndPrefixRelaysShowTheDownstream() {
        let relays: [(ManualPublisher<Int, Never>) -> AnyPublisher<Int, any Error>] = [
            { $0.tryFilter { _ in true }.eraseToAnyPublisher() },
            { $0.tryCompactMap { $0 }.eraseToAnyPublisher() },
            { $0.tryPrefix { _ in true }.eraseToAnyPublisher() },
            { $0.prefix { _ in true }.setFailureType(to: (any Error).self).eraseToAnyPublisher() },
        ]
        for make in relays {
            XCTAssertEqual(mirrors(make).map { $0.map(label) }, Array(repeating: ["downstream"], count: 3))
        }
    }

    func testTryMapAndTheDroppingRelaysShowNoChildren() {
        XCTAssertEqual(mirrors { $0.tryMap { $0 }.eraseToAnyPublisher() }, [[], [], []])
        XCTAssertEqual(mirrors { $0.dropFirst().eraseToAnyPublisher() }, [[], [], []])
        XCTAssertEqual(mirrors { $0.drop { _ in false }.eraseToAnyPublisher() }, [[], [], []])
    }

    private func label(_ line: String) -> String {
        String(line.prefix { $0 != ":" })
    }
}
