/// The state machine behind ``Publishers/Timeout``: every method runs under the operator's lock
/// and calls nothing.
///
/// The clock is a repeating timer on the scheduler, as in Combine. It starts when the
/// subscription arrives, starts again at the subscriber's first request and with every value,
/// and stops when the upstream completes or the subscriber cancels. Each clock carries a number,
/// so a clock that was replaced but still fires (a scheduler whose cancellables do nothing) is
/// recognised and ignored. Events that arrive before the subscription are ignored, as Combine
/// does; so is a cancel before it.
@usableFromInline
internal struct TimeoutState {
    @usableFromInline
    internal enum Link {
        case awaitingSubscription
        /// The subscription arrived; `delivered` once the subscriber received it.
        case subscribed(any Subscription, delivered: Bool)
        /// The clock ran out on another thread while the subscriber was still receiving its
        /// subscription: the upstream is cancelled, and the time-out goes to the subscriber once
        /// its `receive(subscription:)` has returned, as Combine's lock around that call makes it
        /// wait.
        case timedOutBeforeDelivery
        /// The upstream completed and its completion is on its way to the scheduler: a cancel
        /// still reaches the upstream, as in Combine.
        case completing(any Subscription)
        case terminal
    }

    /// What the clock found when it fired.
    @usableFromInline
    internal enum Firing {
        /// Nothing: the clock was replaced, or the stream had ended.
        case ignore
        /// The stream timed out: cancel the upstream and the clock, complete the subscriber.
        case timedOut(any Subscription, clock: (any Cancellable)?)
        /// The stream timed out while another thread is still handing the subscriber its
        /// subscription: cancel the upstream and the clock; that thread completes the subscriber
        /// once it is done (``delivered()``).
        case timedOutBeforeDelivery(any Subscription, clock: (any Cancellable)?)
        /// The scheduler ran the first clock's action inside `schedule`, on the thread that is
        /// about to hand the subscriber its subscription (an `ImmediateScheduler`). Combine traps
        /// here, taking its own lock a second time.
        case tooEarly
    }

    @usableFromInline var phase = Link.awaitingSubscription
    /// The number of the current clock.
    @usableFromInline var generation = 0
    /// The current clock's cancellable, once `schedule` returned it.
    @usableFromInline var clock: (any Cancellable)?
    @usableFromInline var requested = false
    /// The thread handing the subscriber its subscription (``DownstreamTurn/currentThread``).
    @usableFromInline var subscribingThread: UInt = 0
    /// Whether that thread is still inside the `schedule` call that starts the first clock.
    @usableFromInline var startingFirstClock = false

    @inlinable
    init() {}

    /// The upstream's subscription arrived.
    /// - Parameter thread: The thread that will hand it to the subscriber.
    /// - Returns: The number of the clock to start, or `nil` when the subscription must be
    ///   cancelled (a second one, or one after the end).
    @inlinable
    mutating func subscribe(_ subscription: any Subscription, on thread: UInt) -> Int? {
        guard case .awaitingSubscription = phase else { return nil }
        phase = .subscribed(subscription, delivered: false)
        subscribingThread = thread
        startingFirstClock = true
        return restart()
    }

    /// The subscriber received its subscription.
    /// - Returns: Whether the stream timed out meanwhile
    ///   (``Firing/timedOutBeforeDelivery(_:clock:)``) and the subscriber did not cancel: the
    ///   caller completes it now.
    @inlinable
    mutating func delivered() -> Bool {
        switch phase {
        case .subscribed(let upstream, delivered: false):
            phase = .subscribed(upstream, delivered: true)
            return false
        case .timedOutBeforeDelivery:
            phase = .terminal
            return true
        case .awaitingSubscription, .subscribed, .completing, .terminal:
            return false
        }
    }

    /// The subscriber requested `demand`.
    /// - Returns: The upstream to forward it to (`nil` outside a live stream), and the number of
    ///   a new clock when this is the first request.
    @inlinable
    mutating func request() -> (upstream: (any Subscription)?, clock: Int?) {
        guard case .subscribed(let upstream, _) = phase else { return (nil, nil) }
        guard !requested else { return (upstream, nil) }
        requested = true
        return (upstream, restart())
    }

    /// A value arrived.
    /// - Returns: The number of a new clock, or `nil` when the value is ignored.
    @inlinable
    mutating func receiveValue() -> Int? {
        guard case .subscribed = phase else { return nil }
        return restart()
    }

    /// The clock numbered `generation` is running: remember its cancellable.
    /// - Returns: A cancellable the caller cancels: the previous clock's, or this one when it was
    ///   already overtaken or the stream ended meanwhile.
    @inlinable
    mutating func started(_ generation: Int, clock: any Cancellable) -> (any Cancellable)? {
        startingFirstClock = false
        guard generation == self.generation, isLive else { return clock }
        defer { self.clock = clock }
        return self.clock
    }

    /// The clock numbered `generation` fired.
    /// - Parameter thread: The thread it fired on.
    @inlinable
    mutating func fire(_ generation: Int, on thread: UInt) -> Firing {
        guard generation == self.generation else { return .ignore }
        switch phase {
        case .subscribed(let upstream, delivered: false) where thread != subscribingThread:
            phase = .timedOutBeforeDelivery
            return .timedOutBeforeDelivery(upstream, clock: takeClock())
        case .subscribed(_, delivered: false) where startingFirstClock:
            return .tooEarly
        case .subscribed(let upstream, _):
            // After the subscriber had its subscription, or beneath its `receive(subscription:)`
            // on the same thread (a scheduler it runs from there): at once, as Combine's
            // recursive lock around the subscriber lets it.
            phase = .terminal
            return .timedOut(upstream, clock: takeClock())
        case .awaitingSubscription, .timedOutBeforeDelivery, .completing, .terminal:
            return .ignore
        }
    }

    /// The upstream completed.
    /// - Returns: `nil` when the completion is ignored; otherwise the clock to cancel (if any)
    ///   inside `.some`.
    @inlinable
    mutating func complete() -> (any Cancellable)?? {
        guard case .subscribed(let upstream, _) = phase else { return nil }
        phase = .completing(upstream)
        return .some(takeClock())
    }

    /// The completion's scheduled action ran.
    /// - Returns: Whether to deliver it (the subscriber did not cancel meanwhile).
    @inlinable
    mutating func deliverCompletion() -> Bool {
        guard case .completing = phase else { return false }
        phase = .terminal
        return true
    }

    /// The subscriber cancelled.
    /// - Returns: `nil` outside a live stream (nothing to do); otherwise the upstream and the
    ///   clock to cancel, `nil` where they are cancelled already (a stream that timed out while
    ///   the subscriber was receiving its subscription: it gets no completion now).
    @inlinable
    mutating func cancel() -> (upstream: (any Subscription)?, clock: (any Cancellable)?)? {
        switch phase {
        case .subscribed(let upstream, _), .completing(let upstream):
            phase = .terminal
            return (upstream, takeClock())
        case .timedOutBeforeDelivery:
            phase = .terminal
            return (nil, nil)
        case .awaitingSubscription, .terminal:
            return nil
        }
    }

    /// The upstream while values may still be delivered and their demand requested.
    @inlinable
    var upstream: (any Subscription)? {
        guard case .subscribed(let upstream, _) = phase else { return nil }
        return upstream
    }

    @inlinable
    var isLive: Bool {
        switch phase {
        case .subscribed: return true
        case .awaitingSubscription, .timedOutBeforeDelivery, .completing, .terminal: return false
        }
    }

    @inlinable
    mutating func restart() -> Int {
        generation += 1
        return generation
    }

    @inlinable
    mutating func takeClock() -> (any Cancellable)? {
        generation += 1
        defer { clock = nil }
        return clock
    }
}
