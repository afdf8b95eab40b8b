import Synchronization
import Tether
import TetherTesting
import XCTest

/// Races on `objectWillChange`'s subscriptions (``ObservableObjectPublisher``): signals from two
/// threads never overlap in the subscriber, a cancel racing a signal lets go of the subscriber
/// once the delivery in flight is over, and nothing is delivered after the cancel returns.
final class ObservableObjectRacesTests: TetherTestCase {
    /// How many signals arrived, and whether two calls ever overlapped.
    private final class Record: @unchecked Sendable {
        private let count = Atomic<Int>(0)
        private let inside = Atomic<Bool>(false)
        private let overlapCount = Atomic<Int>(0)

        var signals: Int { count.load(ordering: .sequentiallyConsistent) }
        var overlaps: Int { overlapCount.load(ordering: .sequentiallyConsistent) }

        func note() {
            if inside.exchange(true, ordering: .sequentiallyConsistent) {
                overlapCount.add(1, ordering: .sequentiallyConsistent)
            }
            count.add(1, ordering: .sequentiallyConsistent)
            inside.store(false, ordering: .sequentiallyConsistent)
        }
    }

    /// Captured by the sink's closure: gone once it is released.
    private final class Captured: @unchecked Sendable {}

    private final class Model: ObservableObject, @unchecked Sendable {
        @Published var level = 0
    }

    private struct Round: @unchecked Sendable {
        let publisher: ObservableObjectPublisher
        let record: Record
        let cancellable: AnyCancellable
        weak var captured: Captured?
    }

    private func round() -> Round {
        let publisher = ObservableObjectPublisher()
        let record = Record()
        let captured = Captured()
        let cancellable = publisher.sink { withExtendedLifetime(captured) { record.note() } }
        return Round(publisher: publisher, record: record, cancellable: cancellable, captured: captured)
    }

    func testSendRacingSendDeliversBothWithoutOverlap() {
        Race.run(
            setup: round,
            { $0.publisher.send() },
            { $0.publisher.send() },
            check: { round in
                XCTAssertEqual(round.record.signals, 2)
                XCTAssertEqual(round.record.overlaps, 0)
                round.cancellable.cancel()
                XCTAssertNil(round.captured)
            })
    }

    func testSendRacingCancelLetsGoOfTheSubscriberOnceBothAreDone() {
        Race.run(
            setup: round,
            { $0.publisher.send() },
            { $0.cancellable.cancel() },
            check: { round in
                XCTAssertLessThanOrEqual(round.record.signals, 1)
                XCTAssertNil(round.captured, "the subscriber outlived the cancel and the delivery")
                let before = round.record.signals
                round.publisher.send()
                XCTAssertEqual(round.record.signals, before, "a signal after the cancel was delivered")
            })
    }

    func testThePublisherGoingRacingItsSinksCancelReleasesBoth() {
        final class Setup: @unchecked Sendable {
            var publisher: ObservableObjectPublisher? = ObservableObjectPublisher()
            weak var weakPublisher: ObservableObjectPublisher?
            weak var captured: Captured?
            var cancellable: AnyCancellable?
        }
        Race.run(
            setup: { () -> Setup in
                let setup = Setup()
                let captured = Captured()
                setup.weakPublisher = setup.publisher
                setup.captured = captured
                setup.cancellable = setup.publisher?.sink { withExtendedLifetime(captured) {} }
                return setup
            },
            { $0.publisher = nil },
            { $0.cancellable?.cancel() },
            check: { setup in
                XCTAssertNil(setup.weakPublisher)
                XCTAssertNil(setup.captured, "the sink's closure outlived its cancel")
            })
    }

    func testAPropertySetRacingTheViewsCancelIsDeliveredAtMostOnce() {
        final class Setup: @unchecked Sendable {
            let model = Model()
            let record = Record()
            var cancellable: AnyCancellable?
        }
        Race.run(
            setup: { () -> Setup in
                let setup = Setup()
                let record = setup.record
                setup.cancellable = setup.model.objectWillChange.sink { record.note() }
                return setup
            },
            { $0.model.level = 1 },
            { $0.cancellable?.cancel() },
            check: { setup in
                XCTAssertLessThanOrEqual(setup.record.signals, 1)
                XCTAssertEqual(setup.model.level, 1)
            })
    }

    func testTwoSetsThatBothLookForObjectWillChangeFireItOnceEach() {
        final class Setup: @unchecked Sendable {
            let model = Model()
            let record = Record()
            var cancellables: [AnyCancellable] = []
        }
        Race.run(
            setup: { () -> Setup in
                let setup = Setup()
                let record = setup.record
                // The property's subject is made before the publisher, so the racing sets both look
                // the publisher up, and one of them keeps it for every later set.
                setup.cancellables.append(setup.model.$level.sink { _ in })
                setup.cancellables.append(setup.model.objectWillChange.sink { record.note() })
                return setup
            },
            { $0.model.level = 1 },
            { $0.model.level = 2 },
            check: { setup in
                XCTAssertEqual(setup.record.signals, 2)
                XCTAssertEqual(setup.record.overlaps, 0)
                setup.model.level = 3
                XCTAssertEqual(setup.record.signals, 3)
            })
    }
}
