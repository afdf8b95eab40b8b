import TetherCore

/// How a subscription that holds an upstream and one subscription through a ``Side``
/// (`flatMapFirst`'s inner, `withLatestFrom`'s other publisher) ends, as its state machine
/// decided under the lock. Performed once the lock is released; the cancels come first, so that
/// whatever they stop has been told before the downstream hears the end. Whatever it holds is let
/// go with it, outside the lock.
@usableFromInline
internal struct SideEnding<Downstream: Subscriber> {
    @usableFromInline var downstream: Downstream?
    @usableFromInline var upstream: (any Subscription)?
    @usableFromInline var side: (any Subscription)?
    @usableFromInline var completion: Subscribers.Completion<Downstream.Failure>

    @inlinable
    init(
        _ downstream: Downstream?, cancelling upstream: (any Subscription)?, _ side: (any Subscription)?,
        with completion: Subscribers.Completion<Downstream.Failure>
    ) {
        self.downstream = downstream
        self.upstream = upstream
        self.side = side
        self.completion = completion
    }

    /// Cancels the upstream, then the side, then sends the completion downstream.
    @inlinable
    func perform() {
        upstream?.cancel()
        side?.cancel()
        downstream?.receive(completion: completion)
    }
}
