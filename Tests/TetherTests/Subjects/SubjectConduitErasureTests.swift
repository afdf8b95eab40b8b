@testable import TetherCore
import TetherTesting
import XCTest

/// A subject keeps a subscriber larger than an `AnySubscriber` (a relay of value type) erased,
/// so that a value's delivery does not copy it: the histories, the subscription's description
/// and its mirror stay those of the subscriber itself.
final class SubjectConduitErasureTests: TetherTestCase {
    func testAPassthroughSubjectKeepsARelayErasedAndASubscriberObjectAsItIs() throws {
        let subject = PassthroughSubject<Int, Never>()
        let relayed = RecordingSubscriber<Int, Never>()
        let direct = RecordingSubscriber<Int, Never>()
        subject.map { $0 * 10 }.subscribe(relayed)
        subject.subscribe(direct)
        XCTAssertTrue(relayed.subscription is SubjectSubscription<AnySubscriber<Int, Never>>)
        XCTAssertTrue(direct.subscription is SubjectSubscription<RecordingSubscriber<Int, Never>>)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        XCTAssertEqual(relayed.events, [.subscription, .value(10), .value(20), .completion(.finished)])
        XCTAssertEqual(direct.events, [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    func testACurrentValueSubjectKeepsARelayErasedAndOwesItTheCurrentValue() throws {
        let subject = CurrentValueSubject<Int, Never>(1)
        let relayed = RecordingSubscriber<Int, Never>(demand: .max(1))
        subject.map { $0 * 10 }.subscribe(relayed)
        XCTAssertTrue(relayed.subscription is SubjectSubscription<AnySubscriber<Int, Never>>)
        subject.send(2)
        relayed.request(.max(1))
        subject.send(3)
        XCTAssertEqual(relayed.events, [.subscription, .value(10), .value(20)])
        relayed.cancel()
    }

    func testAPublishedPropertyKeepsARelayErased() throws {
        final class Model {
            @Published var level = 0
        }
        let model = Model()
        let relayed = RecordingSubscriber<Int, Never>()
        model.$level.map { $0 + 1 }.subscribe(relayed)
        XCTAssertTrue(relayed.subscription is SubjectSubscription<AnySubscriber<Int, Never>>)
        model.level = 5
        XCTAssertEqual(relayed.events, [.subscription, .value(1), .value(6)])
        relayed.cancel()
    }

    func testTheSubscriptionsMirrorShowsTheRelayItself() throws {
        let subject = PassthroughSubject<Int, Never>()
        let relayed = RecordingSubscriber<Int, Never>()
        subject.map { $0 }.subscribe(relayed)
        let subscription = try XCTUnwrap(relayed.subscription)
        XCTAssertEqual(String(describing: subscription), "PassthroughSubject")
        // The base classes that keep its state are not part of it, as in Combine.
        XCTAssertNil(Mirror(reflecting: subscription).superclassMirror)
        let downstream = try XCTUnwrap(Mirror(reflecting: subscription).descendant("downstream"))
        XCTAssertEqual(String(describing: downstream), "Optional(Map)")
        relayed.cancel()
    }
}
