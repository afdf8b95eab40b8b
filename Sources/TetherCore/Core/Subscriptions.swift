/// A namespace for symbols related to subscriptions.
public enum Subscriptions {
    /// Returns the "empty" subscription, which ignores requests and cancellation.
    ///
    /// Publishers that complete before any value (``Empty``, ``Fail``, an empty sequence) hand it
    /// to their subscriber before the completion.
    public static var empty: any Subscription { EmptySubscription.shared }
}

/// The subscription behind ``Subscriptions/empty``: requests and cancels do nothing.
internal struct EmptySubscription: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, Sendable
{
    static let shared = EmptySubscription()

    let combineIdentifier = CombineIdentifier()

    func request(_ demand: Subscribers.Demand) {}

    func cancel() {}

    var description: String { "Empty" }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}
