import Foundation
import TetherCore

extension NotificationCenter {
    /// Returns a publisher that emits events when broadcasting notifications.
    /// - Parameters:
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification. If `nil`, the publisher emits
    ///     elements for any object producing a notification with the given name.
    /// - Returns: A publisher that emits events when broadcasting notifications.
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        Publisher(center: self, name: name, object: object)
    }

    /// A publisher that emits elements when broadcasting notifications.
    ///
    /// Each subscription adds its own observer to the center as it is made, before its subscriber
    /// receives it, and removes it when the subscription is cancelled, letting go of the center;
    /// the observer holds the subscription weakly, as in Combine. Notifications are delivered
    /// on the thread that posts them, one at a time across threads: one posted on another thread
    /// while one is being delivered waits for that delivery, then its own thread delivers it.
    /// One posted from inside the subscriber, on the delivering thread, is delivered at once,
    /// nested in the current delivery, as in Combine. A notification posted while the
    /// subscriber has no outstanding demand is dropped; as in Combine, the demand is counted when
    /// the notification is posted, so one posted while another thread delivers the last
    /// notification asked for is dropped at once, whatever that delivery returns. The publisher
    /// never completes and never fails. A request for `.none` does nothing, as in Combine.
    public struct Publisher: TetherCore.Publisher, @unchecked Sendable {
        // @unchecked Sendable: its properties are constants; the center and the object (not
        // `Sendable` on Linux) are only used to add and remove an observer, which
        // NotificationCenter allows from any thread.

        /// The kind of values published by this publisher.
        public typealias Output = Notification

        /// The kind of errors this publisher might publish: it never fails.
        public typealias Failure = Never

        /// The notification center this publisher uses as a source.
        public let center: NotificationCenter

        /// The name of notifications published by this publisher.
        public let name: Notification.Name

        /// The object posting the named notification; `nil` for any object.
        public let object: AnyObject?

        /// Creates a publisher that emits events when broadcasting notifications.
        /// - Parameters:
        ///   - center: The notification center to publish notifications for.
        ///   - name: The name of the notification to publish.
        ///   - object: The object posting the named notification. If `nil`, the publisher emits
        ///     elements for any object producing a notification with the given name.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Attaches `subscriber`: adds its observer to the center, then hands it the subscription.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Notification, S.Failure == Never {
            subscriber.receive(subscription: NotificationSubscription(downstream: subscriber, publisher: self))
        }
    }
}

extension NotificationCenter.Publisher: Equatable {
    /// Returns whether two publishers observe the same center, for the same name and the same
    /// object (centers and objects compare by identity).
    /// - Parameters:
    ///   - lhs: A notification center publisher to compare.
    ///   - rhs: Another notification center publisher to compare.
    /// - Returns: `true` if the publishers have the same `center`, `name` and `object`.
    public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher) -> Bool {
        lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
    }
}
