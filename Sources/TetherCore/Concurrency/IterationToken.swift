/// What an async iterator owns: when the last copy of the iterator goes away (the loop broke,
/// returned or threw), the subscription is cancelled.
@usableFromInline
internal final class IterationToken<Output, Failure: Error>: Sendable {
    @usableFromInline
    internal let relay: IterationSubscriber<Output, Failure>

    @usableFromInline
    internal init(relay: IterationSubscriber<Output, Failure>) {
        self.relay = relay
    }

    deinit {
        relay.cancel()
    }
}
