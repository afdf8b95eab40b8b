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
