/// The upstream's link of a time operator whose completion goes out on a scheduler
/// (`receive(on:)`, `delay`, `throttle`): values are accepted only while it is `subscribed`, and
/// once the upstream completes the subscription is kept, `completing`, until the completion has
/// gone out, for the demand of values still in flight.
@usableFromInline
internal enum ScheduledLink {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// The upstream completed; the completion is on its way to the scheduler.
    case completing(any Subscription)
    case terminal
}

extension ScheduledLink {
    /// Whether the link is `subscribed`: the check of every value. The link is moved out and back
    /// rather than read in place, since reading its case in place copies it, the subscription
    /// through run-time value witnesses (Docs/FastWithoutTheSpecialiser.md, "Subscriptions moved
    /// out, not copied").
    @inlinable
    internal mutating func isSubscribed() -> Bool {
        switch consume self {
        case .subscribed(let upstream):
            self = .subscribed(upstream)
            return true
        case let other:
            self = other
            return false
        }
    }
}
