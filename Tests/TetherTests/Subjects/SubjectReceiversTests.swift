@testable import TetherCore
import TetherTesting
import XCTest

/// A subject keeps one subscriber inline and two or more in an array, which is `nil` while not in
/// use (`SubjectReceivers`): sends reach every subscriber in the order they attached, through
/// every change between none, one and many.
final class SubjectReceiversTests: TetherTestCase {
    func testSendsFollowTheSubscribersThroughNoneOneAndMany() {
        let subject = PassthroughSubject<Int, Never>()
        var log: [String] = []
        func watch(_ name: String) -> AnyCancellable {
            subject.sink { log.append("\(name)\($0)") }
        }
        subject.send(0)
        let a = watch("a")
        subject.send(1)
        let b = watch("b")
        let c = watch("c")
        subject.send(2)
        b.cancel()
        subject.send(3)
        a.cancel()
        subject.send(4)
        let d = watch("d")
        subject.send(5)
        c.cancel()
        d.cancel()
        subject.send(6)
        let e = watch("e")
        subject.send(7)
        e.cancel()
        XCTAssertEqual(log, ["a1", "a2", "b2", "c2", "a3", "c3", "c4", "c5", "d5", "e7"])
    }

    func testRemovingAnAbsentConduitChangesNothing() {
        var receivers = SubjectReceivers<Int, Never>()
        var log: [String] = []
        let first = Conduit("first") { log.append($0) }
        let second = Conduit("second") { log.append($0) }
        XCTAssertNil(receivers.remove(first))
        receivers.append(first.entry)
        XCTAssertNil(receivers.remove(second))
        receivers.offer(1)
        receivers.append(second.entry)
        XCTAssertNil(receivers.remove(Conduit("third") { log.append($0) }))
        receivers.offer(2)
        XCTAssertNotNil(receivers.remove(first))
        XCTAssertNil(receivers.remove(first))
        receivers.offer(3)
        XCTAssertNotNil(receivers.remove(second))
        XCTAssertNil(receivers.many)
        receivers.offer(4)
        XCTAssertEqual(log, ["first 1", "first 2", "second 2", "second 3"])
    }

    /// A conduit that logs what it is offered.
    private final class Conduit: SubjectConduitProtocol {
        typealias Output = Int
        typealias Failure = Never

        let name: String
        let record: (String) -> Void

        init(_ name: String, record: @escaping (String) -> Void) {
            self.name = name
            self.record = record
        }

        var entry: SubjectEntry<Int, Never> {
            SubjectEntry(conduit: self) { conduit, value in
                let conduit = conduit as! Conduit
                conduit.record("\(conduit.name) \(value)")
            }
        }

        func finish(_ completion: Subscribers.Completion<Never>) {}
    }
}
