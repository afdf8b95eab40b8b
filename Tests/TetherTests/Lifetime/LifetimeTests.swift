import Foundation
import Tether
import TetherExtras
import TetherTesting
import XCTest

final class LifetimeTests: TetherTestCase {
    func testObserversRunOnceWhenTheTokenIsDeinitialised() {
        let ran = AtomicCounter()
        var token: Lifetime.Token? = Lifetime.Token()
        let lifetime = Lifetime(token!)
        lifetime.observeEnded { ran.increment() }
        XCTAssertFalse(lifetime.hasEnded)
        token = nil
        XCTAssertTrue(lifetime.hasEnded)
        XCTAssertEqual(ran.value, 1)
    }

    func testEndIsIdempotentAndDeinitAfterEndRunsNothingMore() {
        let ran = AtomicCounter()
        var pair: (lifetime: Lifetime, token: Lifetime.Token)? = Lifetime.make()
        pair!.lifetime.observeEnded { ran.increment() }
        pair!.token.end()
        pair!.token.end()
        pair = nil
        XCTAssertEqual(ran.value, 1)
    }

    func testObservingAnEndedLifetimeRunsAtOnce() {
        let ran = AtomicCounter()
        XCTAssertTrue(Lifetime.ended.hasEnded)
        Lifetime.ended.observeEnded { ran.increment() }
        XCTAssertEqual(ran.value, 1)
    }

    func testCancelledObservationDoesNotRun() {
        let ran = AtomicCounter()
        let (lifetime, token) = Lifetime.make()
        lifetime.observeEnded { ran.increment() }.cancel()
        token.end()
        XCTAssertEqual(ran.value, 0)
    }

    func testPrefixDuringFinishesWhenTheLifetimeEnds() {
        let subject = PassthroughSubject<Int, Never>()
        let (lifetime, token) = Lifetime.make()
        let recorder = RecordingSubscriber<Int, Never>()
        subject.prefix(during: lifetime).subscribe(recorder)
        subject.send(1)
        token.end()
        subject.send(2)
        XCTAssertEqual(recorder.events, [.subscription, .value(1), .completion(.finished)])
    }

    func testPrefixDuringAnEndedLifetimeFinishesAtOnce() {
        let recorder = RecordingSubscriber<Int, Never>()
        PassthroughSubject<Int, Never>().prefix(during: .ended).subscribe(recorder)
        // Built on prefix(untilOutputFrom:), which, as in Combine, finishes a subscriber whose
        // trigger fires before the upstream's subscription arrives without subscribing it.
        XCTAssertEqual(recorder.events, [.completion(.finished)])
    }

    func testEndedPublisherWaitsForDemand() {
        let (lifetime, token) = Lifetime.make()
        let recorder = RecordingSubscriber<Void, Never>(demand: .none)
        lifetime.endedPublisher.subscribe(recorder)
        token.end()
        XCTAssertEqual(recorder.events.count, 1)
        recorder.request(.max(1))
        XCTAssertEqual(recorder.events.count, 3)
    }

    func testStoreInLifetimeCancelsWhenItEnds() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var token: Lifetime.Token? = Lifetime.Token()
        subject.sink { received.append($0) }.store(in: Lifetime(token!))
        subject.send(1)
        token = nil
        subject.send(2)
        XCTAssertEqual(received, [1])
    }

    func testStoreInLifetimeLetsGoOfAFinishedSubscription() throws {
        try requireLedger()
        let (lifetime, token) = Lifetime.make()
        let subject = PassthroughSubject<Int, Never>()
        subject.sink { _ in }.store(in: lifetime)
        Just(1).sink { _ in }.store(in: lifetime)
        XCTAssertEqual(SubscriptionLedger.snapshot().filter { $0.chain.hasPrefix("Sink") }.count, 1)
        subject.send(completion: .finished)
        XCTAssertEqual(SubscriptionLedger.liveCount, 0, "the lifetime no longer holds the finished sinks")
        withExtendedLifetime(token) {}
    }
}

final class CancellableBagTests: TetherTestCase {
    func testCancelCancelsEverythingAndLaterInsertsAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        let bag = CancellableBag()
        subject.sink { received.append($0) }.store(in: bag)
        subject.send(1)
        bag.cancel()
        XCTAssertTrue(bag.isCancelled)
        subject.send(2)
        let cancelled = AtomicCounter()
        AnyCancellable { cancelled.increment() }.store(in: bag)
        XCTAssertEqual(cancelled.value, 1)
        XCTAssertEqual(bag.count, 0)
        XCTAssertEqual(received, [1])
    }

    func testDeinitCancelsEntries() {
        let cancelled = AtomicCounter()
        var bag: CancellableBag? = CancellableBag()
        AnyCancellable { cancelled.increment() }.store(in: bag!)
        AnyCancellable { cancelled.increment() }.store(in: bag!)
        bag = nil
        XCTAssertEqual(cancelled.value, 2)
    }

    func testFinishedSubscriptionsArePruned() {
        let bag = CancellableBag()
        let subject = PassthroughSubject<Int, Never>()
        for _ in 0..<100 {
            Just(1).sink { _ in }.store(in: bag)
        }
        XCTAssertEqual(bag.count, 0, "sinks that completed before insertion are dropped at once")
        subject.sink { _ in }.store(in: bag)
        subject.map { $0 }.assign(to: \.value, on: IntHolder(), ownership: .strong).store(in: bag)
        let closure = AnyCancellable {}
        closure.store(in: bag)
        XCTAssertEqual(bag.count, 3)
        subject.send(completion: .finished)
        XCTAssertEqual(bag.count, 1, "only the closure, which cannot report its end, remains")
    }

    func testCancellingAnEntryDirectlyPrunesIt() {
        let bag = CancellableBag()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        PassthroughSubject<Int, Never>().subscribe(sink)
        sink.store(in: bag)
        XCTAssertEqual(bag.count, 1)
        sink.cancel()
        XCTAssertEqual(bag.count, 0)
    }

    func testConcurrentInsertsAndCompletionsLeaveAnEmptyBag() {
        let bag = CancellableBag()
        let shared = UncheckedBox(bag)
        DispatchQueueStandIn.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let subject = PassthroughSubject<Int, Never>()
                subject.sink { _ in }.store(in: shared.value)
                subject.send(completion: .finished)
            }
        }
        XCTAssertEqual(bag.count, 0)
    }
}

private final class IntHolder {
    var value = 0
}

final class WeakSinkTests: TetherTestCase {
    private final class Owner {
        var values: [Int] = []
        var completions = 0
        func record(_ value: Int) { values.append(value) }
    }

    func testWeakSinkPassesTheOwnerAndCancelsOnceItIsGone() {
        let upstream = RecordingPublisherProbe()
        var owner: Owner? = Owner()
        let cancellable = upstream.subject.handleEvents(receiveCancel: { upstream.cancels.increment() })
            .sink(weak: owner!, receiveCompletion: { owner, _ in owner.completions += 1 }) { owner, value in
                owner.record(value)
            }
        upstream.subject.send(1)
        XCTAssertEqual(owner?.values, [1])
        owner = nil
        XCTAssertEqual(upstream.cancels.value, 0)
        upstream.subject.send(2)
        XCTAssertEqual(upstream.cancels.value, 1, "the next event cancelled the subscription")
        withExtendedLifetime(cancellable) {}
    }

    func testMethodFormCallsTheMethod() {
        let subject = PassthroughSubject<Int, Never>()
        let owner = Owner()
        let cancellable = subject.sink(weak: owner, Owner.record)
        subject.send(5)
        subject.send(6)
        XCTAssertEqual(owner.values, [5, 6])
        cancellable.cancel()
    }

    func testUnownedAssignAssigns() {
        let subject = PassthroughSubject<Int, Never>()
        let box = IntHolder()
        let cancellable = subject.assign(to: \.value, on: box, ownership: .unowned)
        subject.send(3)
        XCTAssertEqual(box.value, 3)
        cancellable.cancel()
    }

    private struct RecordingPublisherProbe {
        let subject = PassthroughSubject<Int, Never>()
        let cancels = AtomicCounter()
    }
}

final class LedgerOriginTests: TetherTestCase {
    private final class Owner {}

    func testSnapshotNamesTheChainOfCombinesSinkWithoutACallSite() throws {
        try requireLedger()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.map { $0 + 1 }.filter { $0 > 0 }.sink { _ in }
        let entry = SubscriptionLedger.snapshot().first { $0.chain.hasPrefix("Sink") }
        XCTAssertEqual(entry?.chain, "Sink ← Filter ← Map ← PassthroughSubject")
        XCTAssertNil(entry?.file, "Combine's sink(receiveValue:) takes no call site")
        XCTAssertNil(entry?.line)
        XCTAssertEqual(entry?.type, "Subscribers.Sink")
        XCTAssertEqual(entry?.description, "Sink ← Filter ← Map ← PassthroughSubject")
        cancellable.cancel()
    }

    func testSnapshotNamesTheChainAndCallSiteOfAnExtrasSink() throws {
        try requireLedger()
        let subject = PassthroughSubject<Int, Never>()
        let owner = Owner()
        let line: UInt = #line + 1
        let cancellable = subject.map { $0 + 1 }.sink(weak: owner) { _, _ in }
        let entry = SubscriptionLedger.snapshot().first { $0.chain.hasPrefix("WeakSink") }
        XCTAssertEqual(entry?.chain, "WeakSink ← Map ← PassthroughSubject")
        XCTAssertEqual(entry?.file, "TetherTests/LifetimeTests.swift")
        XCTAssertEqual(entry?.line, line)
        cancellable.cancel()
    }

    func testSubscribeRecordsTheChainOfASinkMadeByHand() throws {
        try requireLedger()
        let subject = PassthroughSubject<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        subject.eraseToAnyPublisher().subscribe(sink)
        let entry = SubscriptionLedger.snapshot().first { $0.chain.hasPrefix("Sink") }
        XCTAssertEqual(entry?.chain, "Sink ← AnyPublisher ← PassthroughSubject")
        XCTAssertNil(entry?.line, "Combine's subscribe(_:) takes no call site")
        sink.cancel()
    }

    /// A class's stored properties may be changing on another thread, under a lock the ledger
    /// does not hold: the ledger names a publisher class without reflecting it.
    func testTheChainNamesAPublisherClassWithoutReflectingIt() throws {
        try requireLedger()
        final class Watched: Publisher, CustomReflectable, @unchecked Sendable {
            typealias Output = Int
            typealias Failure = Never
            var reflected = false
            var customMirror: Mirror {
                reflected = true
                return Mirror(self, children: [:])
            }
            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
                subscriber.receive(subscription: Subscriptions.empty)
            }
        }
        let watched = Watched()
        let cancellable = watched.map { $0 + 1 }.eraseToAnyPublisher().sink { _ in }
        let entry = SubscriptionLedger.snapshot().first { $0.chain.hasPrefix("Sink") }
        XCTAssertEqual(entry?.chain, "Sink ← AnyPublisher ← Map ← Watched")
        XCTAssertFalse(watched.reflected)
        cancellable.cancel()
    }

    func testSubscribeRecordsNoChainForAnOperatorsInnerSubscriber() throws {
        try requireLedger()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.handleEvents().sink { _ in }
        let inner = SubscriptionLedger.snapshot().first { $0.type.hasPrefix("Publishers.HandleEvents") }
        XCTAssertEqual(inner?.type, "Publishers.HandleEvents.Inner")
        XCTAssertEqual(inner?.chain, "Inner")
        cancellable.cancel()
    }

    func testNoLiveSubscriptionsCheckReportsWhatABlockLeftBehind() throws {
        try requireLedger()
        let subject = PassthroughSubject<Int, Never>()
        var kept: AnyCancellable?
        let live = LeakCheck.liveSubscriptions(timeout: 0.01) { kept = subject.sink { _ in } }
        XCTAssertEqual(live.map(\.chain).filter { $0.hasPrefix("Sink") }, ["Sink ← PassthroughSubject"])
        kept = nil
        assertNoLiveSubscriptions {
            subject.sink { _ in }.cancel()
            _ = Just(1).sink { _ in }
        }
        XCTAssertNil(kept)
    }

    func testDebugLogsEveryEventWithTheIdentifier() {
        let stream = CollectingStream()
        let line = #line + 1
        _ = [1].publisher.debug(to: stream).sink { _ in }
        _ = Empty<Int, Never>(completeImmediately: false).debug("named", to: stream).prefix(0).sink { _ in }
        let text = stream.text
        XCTAssertTrue(text.contains("[TetherTests/LifetimeTests.swift:\(line)]: receive value: (1)"), text)
        XCTAssertTrue(text.contains("[TetherTests/LifetimeTests.swift:\(line)]: request unlimited"), text)
        XCTAssertTrue(text.contains("[TetherTests/LifetimeTests.swift:\(line)]: receive finished"), text)
        XCTAssertTrue(text.contains("[named]: receive cancel"), text)
    }
}
