/// The upstream side of `receive(on:)` and `delay`, as Combine runs it: every method takes the
/// lock once and calls nothing.
///
/// Events before the subscription are ignored, and so is a cancel before it. Once the upstream
/// completes, its completion is on the way to the scheduler: the subscriber's requests and
/// cancels no longer reach the upstream, while the demand returned from values still in flight
/// does, as in Combine.
@usableFromInline
internal struct ScheduledUpstream: ~Copyable, @unchecked Sendable {
    @usableFromInline
    internal enum Link {
        case awaitingSubscription
        case subscribed(any Subscription)
        case completing(any Subscription)
        case terminal
    }

    @usableFromInline let phase = Locked(Link.awaitingSubscription)

    @inlinable
    init() {}

    /// Accepts the upstream's subscription.
    /// - Returns: `false` for a second one, or one after the end: the caller cancels it.
    @inlinable
    func attach(_ subscription: any Subscription) -> Bool {
        phase.withLock { phase in
            guard case .awaitingSubscription = phase else { return false }
            phase = .subscribed(subscription)
            return true
        }
    }

    /// Whether values are accepted (the stream is subscribed and has not completed).
    @inlinable
    var acceptsEvents: Bool {
        phase.withLock { phase in
            guard case .subscribed = phase else { return false }
            return true
        }
    }

    /// Where the subscriber's requests go: `nil` once the upstream completed or the stream ended.
    @inlinable
    var requestTarget: (any Subscription)? {
        phase.withLock { phase in
            guard case .subscribed(let upstream) = phase else { return nil }
            return upstream
        }
    }

    /// Where a delivered value's demand goes, and whether the value may be delivered at all:
    /// `nil` after a cancel.
    @inlinable
    var deliveryTarget: (any Subscription)? {
        phase.withLock { phase in
            switch phase {
            case .subscribed(let upstream), .completing(let upstream): return upstream
            case .awaitingSubscription, .terminal: return nil
            }
        }
    }

    /// The upstream completed.
    /// - Returns: Whether the caller schedules the completion.
    @inlinable
    func complete() -> Bool {
        phase.withLock { phase in
            guard case .subscribed(let upstream) = phase else { return false }
            phase = .completing(upstream)
            return true
        }
    }

    /// The scheduled completion runs: the stream ends.
    @inlinable
    func finish() {
        phase.withLock { $0 = .terminal }
    }

    /// The subscriber cancelled.
    /// - Returns: The upstream to cancel; `nil` before the subscription and once the upstream
    ///   completed. A completed upstream is let go without being told: an upstream that holds
    ///   its subscriber for life (`catch`, `zip`, …) would otherwise keep both alive.
    @inlinable
    func cancel() -> (any Subscription)? {
        phase.withLock { phase in
            switch phase {
            case .subscribed(let upstream):
                phase = .terminal
                return upstream
            case .completing:
                phase = .terminal
                return nil
            case .awaitingSubscription, .terminal:
                return nil
            }
        }
    }
}
