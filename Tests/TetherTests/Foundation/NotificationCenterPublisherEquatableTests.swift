import Foundation
import Tether
import Testing

/// Two notification center publishers are equal when they observe the same center, name and
/// object.
@Suite struct NotificationCenterPublisherEquatableTests {
    final class Sender: NSObject {}

    @Test func equalityComparesCenterNameAndObject() {
        let center1 = NotificationCenter()
        let center2 = NotificationCenter()
        let name1 = Notification.Name("abcdefg")
        let name2 = Notification.Name("1234567")
        let object1 = Sender()
        let object2 = Sender()
        #expect(center1.publisher(for: name1, object: object1) == center1.publisher(for: name1, object: object1))
        #expect(center2.publisher(for: name2, object: object2) == center2.publisher(for: name2, object: object2))
        #expect(center1.publisher(for: name1) == NotificationCenter.Publisher(center: center1, name: name1))
        #expect(center1.publisher(for: name1, object: object1) != center1.publisher(for: name1))
        #expect(center1.publisher(for: name1) != center1.publisher(for: name1, object: object2))
        #expect(center1.publisher(for: name1, object: object1) != center1.publisher(for: name1, object: object2))
        #expect(center1.publisher(for: name1, object: object1) != center1.publisher(for: name2, object: object1))
        #expect(center1.publisher(for: name1, object: object1) != center2.publisher(for: name1, object: object1))
    }
}
