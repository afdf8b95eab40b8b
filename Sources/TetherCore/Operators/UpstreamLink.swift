/// The subscription kernel for an operator that is its own subscription and keeps nothing under a
/// lock but its upstream's status: the one place where such an operator holds and changes state.
///
/// It has two halves, and every relaying subscription in Tether is built from the same two
/// (Docs/SubscriptionKernel.md):
///
/// - `status`: where the stream stands with its upstream (``UpstreamStatus``), under the library's
///   one lock. Who ends the stream (a completion, a failure, a cancel from any thread) is decided
///   here, and the transitions are written once, below.
/// - `handOff`: what only the upstream's serial signal path reads (the downstream, the user's
///   closures, a buffer) stays in the subscription's own stored properties, without a lock; the
///   ``ReleaseHandOff`` decides which side releases it when the stream ends, so that a value
///   takes no lock.
///
/// An operator whose locked state is richer than an upstream status (a pending completion, the
/// hooks `handleEvents` ends with the stream) holds its own `…State` under a `Locked` beside a
/// `ReleaseHandOff`: the same two halves, with its own state machine in the first.
///
/// The hand-off comes first: it has a fixed layout, so the lock's offset does not depend on it.
@usableFromInline
package struct UpstreamLink: ~Copyable, @unchecked Sendable {
    /// Who releases the serial path's state; see ``ReleaseHandOff``.
    @usableFromInline package let handOff = ReleaseHandOff()

    /// Where the stream stands with its upstream.
    @usableFromInline package let status = Locked(UpstreamStatus.awaitingSubscription)

    @inlinable
    package init() {}

    /// Accepts the upstream's subscription, for an operator that keeps no serial-path state.
    /// - Returns: `false` for a second subscription, or one after the stream ended: the caller
    ///   must cancel it.
    @inlinable
    package func attach(_ subscription: any Subscription) -> Bool {
        status.withLock { $0.attach(subscription) }
    }

    /// Accepts the upstream's subscription and opens the hand-off: handing the subscription
    /// downstream is a delivery like any other (the downstream may cancel from inside it), so
    /// the caller ends it with `handOff.leave()` and releases its state when that says so.
    /// - Returns: `false` for a second subscription, or one after the stream ended: the caller
    ///   must cancel it, and must not call `leave()`.
    @inlinable
    package func accept(_ subscription: any Subscription) -> Bool {
        guard attach(subscription) else { return false }
        // Nobody can have stopped the stream yet: the downstream has not seen the subscription.
        handOff.open()
        return true
    }

    /// The status as it is now, for a decision that a later transition may overtake (a mirror, a
    /// request).
    @inlinable
    package var current: UpstreamStatus {
        status.withLock { $0 }
    }

    /// A relay's `request`: passes `demand` on to the upstream while the stream lasts. Before the
    /// upstream's subscription it traps when `beforeSubscription` is `.trap` (naming the relay
    /// `name`), as Combine's relays of that kind do, and drops the demand otherwise.
    ///
    /// One switch over the status as it comes out of the lock: each `case` checked on a kept copy
    /// copied it again, the subscription through its value witness
    /// (Docs/FastWithoutTheSpecialiser.md, "Subscriptions moved out, not copied").
    @inlinable
    package func forward(_ demand: Subscribers.Demand, beforeSubscription: BeforeSubscription, name: StaticString) {
        switch current {
        case .subscribed(let upstream):
            upstream.request(demand)
        case .awaitingSubscription:
            if case .trap = beforeSubscription {
                preconditionFailure("\(name) was asked for demand before its upstream sent the subscription")
            }
        case .terminal:
            return
        }
    }

    /// The upstream subscription while the stream lasts.
    @inlinable
    package var upstream: (any Subscription)? {
        status.withLock { $0.subscription }
    }

    /// Ends the stream, whatever it was waiting for.
    /// - Returns: Whether this call ended it, and the upstream subscription if there was one
    ///   (which the caller cancels when the downstream ended the stream).
    @inlinable
    package func terminate() -> (ended: Bool, upstream: (any Subscription)?) {
        switch end(evenBeforeSubscription: true) {
        case .awaitingSubscription: (true, nil)
        case .subscribed(let upstream): (true, upstream)
        case .terminal: (false, nil)
        }
    }

    /// Ends the stream if it is running; before the subscription and after the end it changes
    /// nothing.
    /// - Returns: The upstream subscription when this call ended the stream, else `nil`.
    @inlinable
    package func endIfSubscribed() -> (any Subscription)? {
        end(evenBeforeSubscription: false).takeSubscription()
    }

    /// Makes the status terminal and returns what it was.
    /// - Parameter evenBeforeSubscription: Whether a stream still waiting for its subscription
    ///   ends too (each of Combine's operators says); when `false`, such a stream is left
    ///   waiting and `.awaitingSubscription` is returned.
    /// - Returns: The status before the call; `.terminal` when the stream had already ended.
    @inlinable
    package func end(evenBeforeSubscription: Bool) -> UpstreamStatus {
        status.withLock { status in
            if !evenBeforeSubscription, case .awaitingSubscription = status { return .awaitingSubscription }
            return UpstreamStatus.end(&status)
        }
    }

    /// The downstream's `cancel`: ends a running stream and stops the hand-off from outside.
    /// - Parameters:
    ///   - evenBeforeSubscription: Whether a cancel before the subscription ends the stream (so
    ///     the subscription is turned away when it comes) rather than being ignored.
    ///   - release: Releases the caller's serial-path state; run when this call ended a running
    ///     stream and no delivery is in flight (otherwise the delivery in flight releases it as
    ///     it leaves).
    /// - Returns: The upstream subscription to cancel, `nil` when this call did not end a
    ///   running stream. Returned on its own: taken out of a tuple, an optional existential was
    ///   copied and the tuple's destroyed, through `Optional`'s run-time value witnesses (about
    ///   340 instructions a cancel).
    @inlinable
    package func cancel(evenBeforeSubscription: Bool, release: () -> Void = {}) -> (any Subscription)? {
        guard let upstream = end(evenBeforeSubscription: evenBeforeSubscription).takeSubscription() else {
            return nil
        }
        if handOff.stopFromOutside() {
            release()
        }
        return upstream
    }
}
