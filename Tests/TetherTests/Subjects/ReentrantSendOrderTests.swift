import Tether
import TetherTesting
import XCTest

/// A value sent into a subject from inside one subscriber's delivery reaches the subscribers that
/// are not busy at once, before the value being delivered does: a later subscriber receives the
/// newer value first and the older one last. Combine does the same; applications built on a
/// `CurrentValueSubject` have reported it as a later subscriber ending on a stale value
/// (pointfreeco/swift-composable-architecture, issue 697). The subscriber that sent receives the
/// reentrant value nested in its current delivery, so what it records before sending comes first.
final class ReentrantSendOrderTests: TetherTestCase {
    func testALaterSinkReceivesTheReentrantValueBeforeTheOuterOne() {
        let subject = PassthroughSubject<Int, Never>()
        var sender: [Int] = []
        var later: [Int] = []
        let first = subject.sink { value in
            sender.append(value)
            if value == 1 { subject.send(2) }
        }
        let second = subject.sink { later.append($0) }
        subject.send(1)
        XCTAssertEqual(sender, [1, 2])
        XCTAssertEqual(later, [2, 1])
        first.cancel()
        second.cancel()
    }

    func testALaterSubscriberReceivesTheReentrantValueBeforeTheOuterOne() {
        let subject = PassthroughSubject<Int, Never>()
        let later = RecordingSubscriber<Int, Never>()
        let first = subject.map { $0 }.sink { value in
            if value == 1 { subject.send(2) }
        }
        subject.subscribe(later)
        subject.send(1)
        XCTAssertEqual(later.events, [.subscription, .value(2), .value(1)])
        first.cancel()
        later.cancel()
    }

    func testACurrentValueSubjectsLaterSinkEndsOnTheOlderValueAndTheSubjectOnTheNewer() {
        let subject = CurrentValueSubject<String, Never>("initial")
        var sender: [String] = []
        var later: [String] = []
        let first = subject.sink { value in
            sender.append(value)
            if value == "old" { subject.value = "new" }
        }
        let second = subject.sink { later.append($0) }
        subject.send("old")
        XCTAssertEqual(sender, ["initial", "old", "new"])
        XCTAssertEqual(later, ["initial", "new", "old"])
        XCTAssertEqual(subject.value, "new")
        first.cancel()
        second.cancel()
    }

    /// Through operators, erased or shared, a value sent from inside the sink still arrives
    /// nested: the subject nests it, and the operators between pass it straight on.
    func testASendFromInsideAChainsSinkArrivesNestedThroughTheChain() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        let chain = subject.map { $0 * 10 }.filter { _ in true }.eraseToAnyPublisher().share()
        let cancellable = chain.sink { value in
            log.append("begin \(value)")
            if value < 30 { subject.send(value / 10 + 1) }
            log.append("end \(value)")
        }
        subject.send(1)
        XCTAssertEqual(log, ["begin 10", "begin 20", "begin 30", "end 30", "end 20", "end 10"])
        cancellable.cancel()
    }

    /// A `CurrentValueSubject`'s subscription keeps a value sent without demand as the latest. A
    /// request from inside a delivery makes it due for after that delivery; a value sent before
    /// then, nested, does not overtake it: the owed value goes at once and the newer one is kept
    /// in its place.
    func testAValueSentWhileAnOwedValueIsDueGoesAfterIt() {
        let subject = CurrentValueSubject<Int, Never>(0)
        var log: [String] = []
        var subscription: (any Subscription)?
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: {
                subscription = $0
                $0.request(.max(1))
            },
            receiveValue: { value in
                log.append("begin \(value)")
                if value == 0 {
                    subject.send(1)
                    subscription?.request(.max(1))
                    subject.send(2)
                }
                log.append("end \(value)")
                return .none
            },
            receiveCompletion: { _ in })
        subject.subscribe(subscriber)
        XCTAssertEqual(log, ["begin 0", "begin 1", "end 1", "end 0"])
        subscription?.request(.max(1))
        XCTAssertEqual(log, ["begin 0", "begin 1", "end 1", "end 0", "begin 2", "end 2"])
        subscription?.cancel()
        subscription = nil
    }

    /// A value a `CurrentValueSubject` sends from inside a delivery that took the last demand is
    /// not delivered on the demand that delivery returns: as in Combine, it is owed as the
    /// subject's current value until the subscriber asks again, and then it goes within the
    /// request.
    func testAValueDroppedInsideADeliveryWaitsForTheNextRequest() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscriber = RecordingSubscriber<Int, Never>(demand: .max(1)) { value in
            if value == 0 { subject.send(1) }
            return .max(1)
        }
        subject.subscribe(subscriber)
        XCTAssertEqual(subscriber.events, [.subscription, .value(0)])
        subscriber.request(.max(1))
        subject.send(2)
        XCTAssertEqual(subscriber.events, [.subscription, .value(0), .value(1), .value(2)])
        subscriber.cancel()
    }
}
