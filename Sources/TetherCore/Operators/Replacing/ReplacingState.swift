/// Where a ``ReplacingSubscription`` stands, under its lock: the upstream's status, a substitute
/// parked until the next request, and the demand the downstream has outstanding.
///
/// The status is the shared ``UpstreamStatus``: once the upstream has completed it is over, even
/// while the substitute waits; the parked substitute is the one thing beside it that outlives the
/// upstream. The demand lives here too, so that a completion and a request each decide with one
/// lock acquisition and cannot miss each other, while a value still takes one (two when the
/// downstream returns demand).
///
/// Not generic, so that the per-value path, run unspecialised behind an erased subscriber, looks
/// up no metadata to reach it.
@usableFromInline
internal struct ReplacingState {
    /// What the shell does once the lock is released, after the upstream's completion.
    @usableFromInline
    internal enum Completion {
        /// Nothing: the stream was not running.
        case nothing
        /// The substitute waits for the next request: only stop the serial path.
        case park
        /// The stream ends now, with the substitute or the forwarded completion as decided.
        case end
    }

    /// What the shell does once the lock is released, after a request.
    @usableFromInline
    internal enum Request {
        case nothing
        /// Pass the demand on to this upstream.
        case forward(to: any Subscription)
        /// The parked substitute goes down now, then `.finished`.
        case substitute
    }

    /// What the shell does once the lock is released, after a cancel.
    @usableFromInline
    internal enum Cancel {
        /// Before the subscription a cancel changes nothing, as in Combine.
        case ignore
        /// The stream is over; cancel `upstream` if it was running.
        case end(upstream: (any Subscription)?)
    }

    @usableFromInline var upstream = UpstreamStatus.awaitingSubscription

    /// The upstream is over and the substitute waits for the downstream's next request.
    @usableFromInline var parked = false

    /// Demand requested and not yet used up by a value.
    @usableFromInline var outstanding = Subscribers.Demand.none

    @inlinable
    init() {}

    /// The upstream's subscription arrived.
    /// - Returns: `false` for a second subscription, or one after the end: the shell cancels it.
    @inlinable
    mutating func attach(_ subscription: any Subscription) -> Bool {
        upstream.attach(subscription)
    }

    /// A value is about to go downstream: it uses up one unit of the outstanding demand.
    /// - Parameters:
    ///   - trapsWithoutDemand: Whether a value with none outstanding traps (`replaceError`).
    ///   - name: The operator, for the trap's message.
    @inlinable
    mutating func value(trapsWithoutDemand: Bool, name: StaticString) {
        if trapsWithoutDemand {
            precondition(
                outstanding > 0, "A publisher must not send a value without demand: \(name) had none outstanding")
        }
        outstanding -= 1
    }

    /// The downstream returned `more` demand for a value.
    @inlinable
    mutating func returned(_ more: Subscribers.Demand) {
        outstanding += more
    }

    /// The upstream completed.
    /// - Parameter substituting: Whether the ending is the substitute rather than a forwarded
    ///   completion; the substitute is a value, so it needs demand.
    /// - Returns: `.nothing` unless the stream was running; `.park` for a substitute with no
    ///   demand outstanding; otherwise `.end`.
    @inlinable
    mutating func complete(substituting: Bool) -> Completion {
        guard upstream.isSubscribed() else { return .nothing }
        upstream = .terminal
        if substituting, outstanding == .none {
            parked = true
            return .park
        }
        return .end
    }

    /// The downstream requested `demand`, counted as outstanding whatever the status.
    /// - Returns: The upstream to pass it on to while the stream runs, `.substitute` when the
    ///   substitute was parked, else `.nothing`.
    @inlinable
    mutating func request(_ demand: Subscribers.Demand) -> Request {
        outstanding += demand
        if case .subscribed(let upstream) = upstream { return .forward(to: upstream) }
        guard parked else { return .nothing }
        parked = false
        return .substitute
    }

    /// The downstream cancelled.
    /// - Returns: `.ignore` before the subscription; otherwise `.end`, the stream being over, with
    ///   the upstream to cancel if it was running.
    @inlinable
    mutating func cancel() -> Cancel {
        if case .awaitingSubscription = upstream { return .ignore }
        parked = false
        return .end(upstream: UpstreamStatus.end(&upstream).takeSubscription())
    }
}
