/// An operator's link to its upstream subscription, under the one lock: who ends the stream is
/// decided here. Shared by the operators that are their own subscription and keep nothing else
/// under a lock (`subscribe(on:)`, `collect(.byTime)`, `measureInterval`, `output(in:)`).
@usableFromInline
internal struct UpstreamLink: ~Copyable, @unchecked Sendable {
    @usableFromInline let state = Locked(UpstreamStatus.awaitingSubscription)

    @inlinable
    init() {}

    /// Accepts the upstream's subscription.
    /// - Returns: `false` for a second subscription, or one after the stream ended: the caller
    ///   must cancel it.
    @inlinable
    func attach(_ subscription: any Subscription) -> Bool {
        state.withLock { state in
            guard case .awaitingSubscription = state else { return false }
            state = .subscribed(subscription)
            return true
        }
    }

    /// The upstream subscription while the stream lasts.
    @inlinable
    var upstream: (any Subscription)? {
        state.withLock { state in
            guard case .subscribed(let upstream) = state else { return nil }
            return upstream
        }
    }

    /// Ends the stream.
    /// - Returns: Whether this call ended it, and the upstream subscription if there was one
    ///   (which the caller cancels when the downstream ended the stream).
    @inlinable
    func terminate() -> (ended: Bool, upstream: (any Subscription)?) {
        let previous = state.withLock { state -> UpstreamStatus in
            defer { state = .terminal }
            return state
        }
        switch previous {
        case .awaitingSubscription: return (true, nil)
        case .subscribed(let upstream): return (true, upstream)
        case .terminal: return (false, nil)
        }
    }

    /// Ends the stream if it is running; before the subscription and after the end it changes
    /// nothing.
    /// - Returns: The upstream subscription when this call ended the stream, else `nil`.
    @inlinable
    func endIfSubscribed() -> (any Subscription)? {
        state.withLock { state in
            guard case .subscribed(let upstream) = state else { return nil }
            state = .terminal
            return upstream
        }
    }
}
