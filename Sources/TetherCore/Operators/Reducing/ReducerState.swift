/// Where a ``Reducer`` stands, under its lock: the upstream's status, whether the downstream has
/// asked for anything yet, and a finished result waiting for that first request.
///
/// The status is the shared ``UpstreamStatus``: once the upstream has finished, a reducer is
/// over as far as its upstream goes even while its result waits, which is also how the mirror
/// shows it. The waiting result is the one thing beside it that outlives the upstream.
///
/// Generic over the result only: it is reached on the per-stream path (subscription, request,
/// ending, cancel), never per value, which folds without the lock.
@usableFromInline
internal struct ReducerState<Output> {
    /// Why the serial path ends the stream.
    @usableFromInline
    internal enum Ending {
        case upstreamFinished
        /// The step settled the result early: the upstream is cancelled, then it is a finish.
        case settled
        case upstreamFailed
        /// The step threw: the upstream is cancelled and the downstream fails.
        case stepThrew
    }

    /// What the shell does once the lock is released, after an ending or a request.
    @usableFromInline
    internal enum Action {
        /// Nothing: the stream was not running, or the request changed nothing.
        case nothing
        /// The result waits for the first request; cancel `cancel` if there is one.
        case park(cancel: (any Subscription)?)
        /// Cancel `cancel` if there is one, then deliver the result (if any) and `.finished`.
        case finish(Output?, cancel: (any Subscription)?)
        /// Cancel `cancel` if there is one, then fail the downstream.
        case fail(cancel: (any Subscription)?)
    }

    /// What a `cancel` ends, handed out so that it is released after the lock.
    @usableFromInline
    internal struct Cancellation {
        /// The upstream to cancel, when the stream was running.
        @usableFromInline var upstream: (any Subscription)?
        /// The result that was waiting for a request, dropped with the cancellation.
        @usableFromInline var parked: Output??

        @inlinable
        init(upstream: (any Subscription)?) {
            self.upstream = upstream
            parked = nil
        }
    }

    @usableFromInline var upstream = UpstreamStatus.awaitingSubscription

    /// The downstream has asked for something; counts only while subscribed.
    @usableFromInline var requested = false

    /// `.some(result)` once the upstream is over and the result (itself optional) and
    /// `.finished` wait for the downstream's first request.
    @usableFromInline var parked: Output?? = nil

    /// The result the fold started from, for the mirror; never changed.
    @usableFromInline let initial: Output?

    @inlinable
    init(initial: Output?) {
        self.initial = initial
    }

    /// The upstream's subscription arrived.
    /// - Returns: `false` for a second subscription, or one after the end: the shell cancels it.
    @inlinable
    mutating func attach(_ subscription: any Subscription) -> Bool {
        upstream.attach(subscription)
    }

    /// The serial path ends the stream with `result` folded so far.
    /// - Returns: `.nothing` unless the stream was running (a completion before the subscription
    ///   is ignored, as Combine ignores it); otherwise what ends it: a park until the first
    ///   request, a finish, or a failure, each with the upstream to cancel when the step ended it.
    @inlinable
    mutating func end(_ ending: Ending, result: Output?) -> Action {
        // Checked, then moved out: reading the case in place copied the subscription's
        // existential and destroyed the copy, through run-time value witnesses.
        guard upstream.isSubscribed() else { return .nothing }
        let subscription = UpstreamStatus.end(&upstream).takeSubscription()
        switch ending {
        case .upstreamFailed:
            return .fail(cancel: nil)
        case .stepThrew:
            return .fail(cancel: subscription)
        case .upstreamFinished, .settled:
            let cancel: (any Subscription)? = if case .settled = ending { subscription } else { nil }
            guard requested else {
                parked = .some(result)
                return .park(cancel: cancel)
            }
            return .finish(result, cancel: cancel)
        }
    }

    /// The downstream requested (any demand: at most one value ever goes down).
    /// - Returns: The parked result (itself optional) when the ending was waiting for this
    ///   request, for the caller to finish with; otherwise `nil`. Not an ``Action``: dropped
    ///   unused, its empty subscription was destroyed through `Optional`'s value witness.
    @inlinable
    mutating func request() -> Output?? {
        if upstream.isSubscribed() {
            requested = true
            return nil
        }
        defer { parked = nil }
        return parked
    }

    /// The downstream cancelled.
    /// - Returns: `nil` before the subscription, which a cancel leaves alone (Combine subscribes
    ///   normally when it arrives); otherwise what the cancel ended, the stream being over.
    @inlinable
    mutating func cancel() -> Cancellation? {
        if case .awaitingSubscription = upstream { return nil }
        var cancellation = Cancellation(upstream: UpstreamStatus.end(&upstream).takeSubscription())
        swap(&cancellation.parked, &parked)
        return cancellation
    }
}
