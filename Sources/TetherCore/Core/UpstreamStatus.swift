/// Where a subscription stands with its upstream: waiting for the upstream's subscription,
/// holding it, or over. The one status that subscribers and operators keeping nothing else about
/// their upstream share (see CONTRIBUTING.md's names).
///
/// Not generic, so a control path reached through `any Subscription` and run unspecialised
/// looks up no generic metadata to use it.
@usableFromInline
package enum UpstreamStatus {
    case awaitingSubscription
    case subscribed(any Subscription)
    case terminal

    /// The upstream's subscription while the stream lasts.
    @inlinable
    package var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Whether the status is `subscribed`, without copying it: the check on a value's path. Reading
    /// a case in place (`if case .subscribed = status`) copies the status, and so the subscription
    /// through run-time value witnesses, and destroys the copy; this moves the status out and back.
    @inlinable
    package mutating func isSubscribed() -> Bool {
        switch consume self {
        case .subscribed(let subscription):
            self = .subscribed(subscription)
            return true
        case let other:
            self = other
            return false
        }
    }

    /// The upstream's subscription, moved out of a status that is not used again (what
    /// ``end(_:)`` returned): unlike ``subscription``, no copy of the existential and no release
    /// of the original, which would each go through run-time value witnesses.
    @inlinable
    package consuming func takeSubscription() -> (any Subscription)? {
        switch consume self {
        case .subscribed(let subscription): subscription
        case .awaitingSubscription, .terminal: nil
        }
    }

    /// Takes the upstream's subscription if the status is still waiting for it.
    /// - Returns: `false` for a second subscription, or one after the end: the caller cancels it.
    @inlinable
    package mutating func attach(_ subscription: any Subscription) -> Bool {
        // Moved out and back rather than read in place: reading a case here copies the status,
        // and assigning over it destroys the old one, each through run-time value witnesses.
        switch consume self {
        case .awaitingSubscription:
            self = .subscribed(subscription)
            return true
        case let other:
            self = other
            return false
        }
    }

    /// Makes `status` terminal and returns what it was, moved out rather than copied (a copy
    /// of the subscription's existential and a release of the original would go through
    /// run-time value witnesses).
    @inlinable
    package static func end(_ status: inout UpstreamStatus) -> UpstreamStatus {
        var previous = UpstreamStatus.terminal
        swap(&status, &previous)
        return previous
    }
}
