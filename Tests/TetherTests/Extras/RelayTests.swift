import Tether
import TetherExtras
import TetherTesting
import XCTest

final class RelayTests: TetherTestCase {
    func testPassthroughRelayBroadcastsWithEachSubscribersDemand() {
        let relay = PassthroughRelay<Int>()
        relay.accept(0)
        let all = RecordingSubscriber<Int, Never>()
        let one = RecordingSubscriber<Int, Never>(demand: .max(1))
        relay.subscribe(all)
        relay.subscribe(one)
        relay.accept(1)
        relay.accept(2)
        XCTAssertEqual(all.events, [.subscription, .value(1), .value(2)])
        XCTAssertEqual(one.events, [.subscription, .value(1)])
        all.cancel()
        one.cancel()
    }

    func testCurrentValueRelayReplaysItsValueAndUpdatesIt() {
        let relay = CurrentValueRelay(1)
        let recorder = RecordingSubscriber<Int, Never>(demand: .none)
        relay.subscribe(recorder)
        relay.accept(2)
        relay.accept(3)
        XCTAssertEqual(relay.value, 3)
        XCTAssertEqual(recorder.events, [.subscription])
        recorder.request(.max(1))
        relay.accept(4)
        XCTAssertEqual(recorder.events, [.subscription, .value(3)])
        recorder.request(.unlimited)
        relay.accept(5)
        XCTAssertEqual(recorder.events, [.subscription, .value(3), .value(4), .value(5)])
        XCTAssertEqual(relay.value, 5)
        recorder.cancel()
    }

    func testVoidRelayAcceptsWithoutArgument() {
        let relay = PassthroughRelay<Void>()
        var count = 0
        let cancellable = relay.sink { count += 1 }
        relay.accept()
        relay.accept()
        XCTAssertEqual(count, 2)
        cancellable.cancel()
    }

    func testSubscribingToUpstreamForwardsValuesButNotTheCompletion() {
        let upstream = RecordingPublisher<Int, Never>()
        let relay = CurrentValueRelay(0)
        let recorder = RecordingSubscriber<Int, Never>()
        relay.subscribe(recorder)
        let connection = upstream.subscribe(relay)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        _ = upstream.send(1)
        _ = upstream.send(2)
        upstream.send(completion: .finished)
        relay.accept(3)
        XCTAssertEqual(recorder.events, [.subscription, .value(0), .value(1), .value(2), .value(3)])
        XCTAssertEqual(relay.value, 3)
        connection.cancel()
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited)])
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testCancellingTheConnectionCancelsTheUpstreamAndKeepsTheRelayOpen() {
        let upstream = RecordingPublisher<Int, Never>()
        let relay = PassthroughRelay<Int>()
        let recorder = RecordingSubscriber<Int, Never>()
        relay.subscribe(recorder)
        let connection = upstream.subscribe(relay)
        _ = upstream.send(1)
        connection.cancel()
        _ = upstream.send(2)
        relay.accept(3)
        XCTAssertEqual(upstream.subscription?.events, [.requested(.unlimited), .cancelled])
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(3)])
        recorder.cancel()
        upstream.releaseSubscribers()
    }

    func testRelayFeedsAnotherRelay() {
        let source = PassthroughRelay<Int>()
        let target = CurrentValueRelay(0)
        let connection = source.subscribe(target)
        source.accept(7)
        XCTAssertEqual(target.value, 7)
        connection.cancel()
        source.accept(8)
        XCTAssertEqual(target.value, 7)
    }

    func testRelaysAndSubscribersAreReleasedAfterCancel() {
        weak var weakPassthrough: PassthroughRelay<Int>?
        weak var weakCurrent: CurrentValueRelay<Int>?
        weak var weakRecorder: RecordingSubscriber<Int, Never>?
        let upstream = RecordingPublisher<Int, Never>()
        do {
            let passthrough = PassthroughRelay<Int>()
            let current = CurrentValueRelay(0)
            let recorder = RecordingSubscriber<Int, Never>()
            weakPassthrough = passthrough
            weakCurrent = current
            weakRecorder = recorder
            passthrough.subscribe(recorder)
            let toCurrent = passthrough.subscribe(current)
            let fromUpstream = upstream.subscribe(passthrough)
            _ = upstream.send(1)
            XCTAssertEqual(current.value, 1)
            recorder.cancel()
            toCurrent.cancel()
            fromUpstream.cancel()
        }
        upstream.releaseSubscribers()
        XCTAssertNil(weakPassthrough)
        XCTAssertNil(weakCurrent)
        XCTAssertNil(weakRecorder)
    }

    func testRelayIsReleasedOnCancelWhileTheUpstreamStillHoldsTheSubscriber() {
        weak var weakRelay: PassthroughRelay<Int>?
        let upstream = RecordingPublisher<Int, Never>()
        do {
            let relay = PassthroughRelay<Int>()
            weakRelay = relay
            upstream.subscribe(relay).cancel()
        }
        XCTAssertNil(weakRelay)
        upstream.releaseSubscribers()
    }

    func testRelayIsReleasedWhenItsUpstreamCompletes() {
        weak var weakRelay: PassthroughRelay<Int>?
        let upstream = RecordingPublisher<Int, Never>()
        var connection: AnyCancellable?
        do {
            let relay = PassthroughRelay<Int>()
            weakRelay = relay
            connection = upstream.subscribe(relay)
        }
        XCTAssertNotNil(weakRelay)
        upstream.send(completion: .finished)
        XCTAssertNil(weakRelay)
        connection = nil
        upstream.releaseSubscribers()
        XCTAssertNil(connection)
    }
}
