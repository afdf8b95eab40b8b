import Foundation
@testable import TetherCore
import TetherExtras
import TetherTesting
import XCTest

/// `sink` on a subject is one object with its subscription (`SubjectSink`): the histories, the
/// release of the closures and what the ledger and lifetimes see are those of a
/// `Subscribers.Sink` on the subject's subscription.
final class SubjectSinkTests: TetherTestCase {
    /// An object the closures capture, to see when they are released.
    private final class Captured: @unchecked Sendable {}

    func testEachSubjectsSinkIsOneSubjectSink() throws {
        let passthrough = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(0)
        let model = Model()
        let cancellables = [passthrough.sink { _ in }, current.sink { _ in }, model.$level.sink { _ in }]
        for cancellable in cancellables {
            guard case .object(let object) = cancellable.canceller else {
                return XCTFail("the cancellable holds no object")
            }
            XCTAssertTrue(object is SubjectSink<Int, Never>, "\(type(of: object))")
        }
        cancellables.forEach { $0.cancel() }
    }

    func testAnErasedSubjectsSinkIsOneSubjectSinkAndAnyOtherErasedSinkIsASink() throws {
        let subject = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(0)
        var received: [Int] = []
        let cancellables = [
            subject.eraseToAnyPublisher().sink { received.append($0) },
            current.eraseToAnyPublisher().sink { received.append($0 + 100) },
            subject.map { $0 }.eraseToAnyPublisher().sink { received.append($0 + 200) },
        ]
        let kinds = cancellables.map { cancellable -> String in
            guard case .object(let object) = cancellable.canceller else { return "none" }
            return object is SubjectSink<Int, Never> ? "SubjectSink" : "\(type(of: object))"
        }
        XCTAssertEqual(kinds, ["SubjectSink", "SubjectSink", "Sink<Int, Never>"])
        subject.send(1)
        current.send(2)
        XCTAssertEqual(received, [100, 1, 201, 102])
        cancellables.forEach { $0.cancel() }
    }

    func testAnObservableObjectPublishersSinkIsOneSubjectSinkErasedOrNot() throws {
        let publisher = ObservableObjectPublisher()
        var received: [String] = []
        let cancellables = [
            publisher.sink { received.append("plain") },
            publisher.sink(
                receiveCompletion: { _ in received.append("completion") }, receiveValue: { received.append("full") }),
            publisher.eraseToAnyPublisher().sink { received.append("erased") },
        ]
        for cancellable in cancellables {
            guard case .object(let object) = cancellable.canceller else {
                return XCTFail("the cancellable holds no object")
            }
            XCTAssertTrue(object is SubjectSink<Void, Never>, "\(type(of: object))")
        }
        publisher.send()
        cancellables[1].cancel()
        publisher.send()
        XCTAssertEqual(received, ["plain", "full", "erased", "plain", "erased"])
        cancellables.forEach { $0.cancel() }
        publisher.send()
        XCTAssertEqual(received.count, 5)
    }

    func testTheLedgerListsAnObservableObjectPublishersSinkAsASinkOnIt() throws {
        try requireLedger()
        let publisher = ObservableObjectPublisher()
        let cancellable = publisher.sink {}
        let live = SubscriptionLedger.snapshot()
        XCTAssertEqual(live.map(\.description), ["Sink ← ObservableObjectPublisher"])
        XCTAssertEqual(live.map(\.type), ["Subscribers.Sink"])
        cancellable.cancel()
        XCTAssertEqual(SubscriptionLedger.snapshot().count, 0)
    }

    func testTheLedgerNamesAnErasedSubjectsSinksChain() throws {
        try requireLedger()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.eraseToAnyPublisher().sink { _ in }
        XCTAssertEqual(SubscriptionLedger.snapshot().map(\.description), ["Sink ← AnyPublisher ← PassthroughSubject"])
        cancellable.cancel()
    }

    func testTheLedgerListsEachAsASinkOnItsSubject() throws {
        try requireLedger()
        let passthrough = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(0)
        let cancellables = [passthrough.sink { _ in }, current.sink { _ in }]
        let live = SubscriptionLedger.snapshot()
        XCTAssertEqual(live.map(\.description).sorted(), ["Sink ← CurrentValueSubject", "Sink ← PassthroughSubject"])
        XCTAssertEqual(live.map(\.type), ["Subscribers.Sink", "Subscribers.Sink"])
        cancellables.forEach { $0.cancel() }
    }

    func testASinkMakesTheSubjectAskItsUpstreamsForValues() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = PassthroughSubject<Int, Never>()
        let before = upstream.subscribe(subject)
        var received: [Int] = []
        let cancellable = subject.sink { received.append($0) }
        upstream.send(1)
        let after = [2, 3].publisher.subscribe(subject)
        XCTAssertEqual(received, [1, 2, 3], "an upstream from before the sink and one from after")
        let erased = PassthroughSubject<Int, Never>()
        let erasedUpstream = [4].publisher.subscribe(erased)
        let erasedSink = erased.eraseToAnyPublisher().sink { received.append($0) }
        XCTAssertEqual(received, [1, 2, 3, 4], "an erased subject's sink asks too")
        [before, after, erasedUpstream, cancellable, erasedSink].forEach { $0.cancel() }
    }

    func testValuesThenTheCompletionThenNothing() {
        let subject = PassthroughSubject<Int, TestError>()
        var events: [String] = []
        let cancellable = subject.sink(
            receiveCompletion: { events.append("\($0)") }, receiveValue: { events.append("\($0)") })
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError(id: 7)))
        subject.send(3)
        subject.send(completion: .finished)
        XCTAssertEqual(events, ["1", "2", "failure(TestError(7))"])
        cancellable.cancel()
    }

    func testACompletedSubjectGivesANewSinkItsCompletionOnly() {
        let passthrough = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(5)
        passthrough.send(completion: .finished)
        current.send(completion: .finished)
        var events: [String] = []
        let cancellables = [
            passthrough.sink(receiveCompletion: { events.append("p \($0)") }) { events.append("p \($0)") },
            current.sink(receiveCompletion: { events.append("c \($0)") }) { events.append("c \($0)") },
        ]
        XCTAssertEqual(events, ["p finished", "c finished"])
        cancellables.forEach { $0.cancel() }
    }

    func testTheClosuresAreReleasedOnCancelOnCompletionAndOnAnEndedSubject() {
        let subject = PassthroughSubject<Int, Never>()
        weak var cancelled: Captured?
        weak var completed: Captured?
        var cancellables: [AnyCancellable] = []
        do {
            let first = Captured()
            let second = Captured()
            cancelled = first
            completed = second
            cancellables.append(subject.sink { _ in withExtendedLifetime(first) {} })
            cancellables.append(
                subject.sink(receiveCompletion: { _ in withExtendedLifetime(second) {} }, receiveValue: { _ in }))
        }
        XCTAssertNotNil(cancelled)
        cancellables[0].cancel()
        XCTAssertNil(cancelled, "a cancel releases the closures")
        XCTAssertNotNil(completed)
        subject.send(completion: .finished)
        XCTAssertNil(completed, "the completion releases the closures")
        weak var late: Captured?
        do {
            let third = Captured()
            late = third
            cancellables.append(subject.sink { _ in withExtendedLifetime(third) {} })
        }
        XCTAssertNil(late, "a sink on an ended subject keeps nothing")
    }

    func testValuesSentFromInsideTheCurrentValuesDeliveryArriveNestedInIt() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var log: [String] = []
        let cancellable = subject.sink { value in
            log.append("begin \(value)")
            if value == 0 {
                subject.send(1)
                subject.send(2)
            }
            log.append("end \(value)")
        }
        XCTAssertEqual(log, ["begin 0", "begin 1", "end 1", "begin 2", "end 2", "end 0"])
        cancellable.cancel()
    }

    func testACompletionSentFromInsideADeliveryArrivesNestedAfterTheValuesSentBeforeIt() {
        let subject = PassthroughSubject<Int, Never>()
        var events: [String] = []
        let cancellable = subject.sink(receiveCompletion: { events.append("\($0)") }) { value in
            events.append("\(value)")
            if value == 1 {
                subject.send(2)
                subject.send(completion: .finished)
                subject.send(3)
            }
            events.append("end \(value)")
        }
        subject.send(1)
        XCTAssertEqual(events, ["1", "2", "end 2", "finished", "end 1"])
        cancellable.cancel()
    }

    /// A completion nested in a value's delivery leaves the closures, the running value closure
    /// among them, to the end of the outermost delivery.
    func testACompletionNestedInADeliveryReleasesTheClosuresOnceTheOutermostReturns() {
        let subject = PassthroughSubject<Int, Never>()
        weak var captured: Captured?
        var aliveAfterCompletion: Bool?
        let cancellable: AnyCancellable
        do {
            let object = Captured()
            captured = object
            cancellable = subject.sink { value in
                withExtendedLifetime(object) {}
                subject.send(completion: .finished)
                aliveAfterCompletion = captured != nil
            }
        }
        subject.send(1)
        XCTAssertEqual(aliveAfterCompletion, true, "the delivery under way keeps its closure")
        XCTAssertNil(captured, "released once the delivery returned")
        cancellable.cancel()
    }

    func testACancelFromInsideNestedDeliveriesReleasesTheClosuresOnceTheOutermostReturns() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var cancellable: AnyCancellable?
        weak var captured: Captured?
        var aliveAfterCancel: [Bool] = []
        do {
            let object = Captured()
            captured = object
            cancellable = subject.sink { value in
                withExtendedLifetime(object) {}
                received.append(value)
                if value < 3 { subject.send(value + 1) }
                cancellable?.cancel()
                subject.send(9)
                aliveAfterCancel.append(captured != nil)
            }
        }
        subject.send(1)
        subject.send(5)
        XCTAssertEqual(received, [1, 2, 3], "nothing after the cancel in the innermost delivery")
        XCTAssertEqual(aliveAfterCancel, [true, true, true], "the deliveries under way keep their closure")
        XCTAssertNil(captured, "released once the outermost delivery returned")
    }

    func testACancelFromAnotherThreadDuringADeliveryLeavesTheReleaseToTheDeliveringThread() {
        let subject = PassthroughSubject<Int, Never>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let delivered = DispatchSemaphore(value: 0)
        weak var captured: Captured?
        var cancellable: AnyCancellable?
        do {
            let object = Captured()
            captured = object
            cancellable = subject.sink { _ in
                withExtendedLifetime(object) {}
                entered.signal()
                proceed.wait()
            }
        }
        let sender = Thread {
            subject.send(1)
            delivered.signal()
        }
        sender.start()
        entered.wait()
        cancellable?.cancel()
        XCTAssertNotNil(captured, "the closure is running on the other thread")
        proceed.signal()
        delivered.wait()
        XCTAssertNil(captured, "the delivering thread released it at the end of its turn")
        subject.send(2)
        XCTAssertEqual(entered.wait(timeout: .now()), .timedOut, "nothing is delivered after the cancel")
    }

    func testAPublishedPropertysSinkGetsTheCurrentValueThenEachNewOne() {
        let model = Model()
        model.level = 1
        var received: [Int] = []
        let cancellable = model.$level.sink { received.append($0) }
        model.level = 2
        model.level = 3
        cancellable.cancel()
        model.level = 4
        XCTAssertEqual(received, [1, 2, 3])
    }

    func testALifetimeBagForgetsASinkWhoseSubjectFinished() {
        let subject = PassthroughSubject<Int, Never>()
        let bag = CancellableBag()
        subject.sink { _ in }.store(in: bag)
        CurrentValueSubject<Int, Never>(0).sink { _ in }.store(in: bag)
        XCTAssertEqual(bag.count, 2)
        subject.send(completion: .finished)
        XCTAssertEqual(bag.count, 1)
        bag.cancel()
    }

    /// A live `subject.sink` takes at most 170 bytes of heap (the target; the memory probe
    /// in `Benchmarks/Probes` counts the same chunks, 160 bytes): the sink in a 112-byte chunk of
    /// the allocator (104 usable) and its `AnyCancellable` in a 48-byte one (40 usable). A field
    /// added to `SubjectSink` that crosses into the next size class fails here, not only in the
    /// benchmark table.
    func testALiveSinkFitsItsSizeClasses() throws {
        #if os(Linux) && canImport(Glibc)
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink { _ in }
        guard case .object(let sink) = cancellable.canceller else { return XCTFail("no object") }
        let usable = { (object: AnyObject) in malloc_usable_size(Unmanaged.passUnretained(object).toOpaque()) }
        XCTAssertLessThanOrEqual(usable(sink), 104, "SubjectSink")
        XCTAssertLessThanOrEqual(usable(cancellable), 40, "AnyCancellable")
        cancellable.cancel()
        #else
        throw XCTSkip("reads the glibc allocator's size classes")
        #endif
    }

    private final class Model {
        @Published var level = 0
    }
}

#if os(Linux) && canImport(Glibc)
/// glibc's size of the chunk behind an allocation, less its header (`malloc.h`, which the `Glibc`
/// module does not export).
@_silgen_name("malloc_usable_size")
private func malloc_usable_size(_ pointer: UnsafeMutableRawPointer) -> Int
#endif
