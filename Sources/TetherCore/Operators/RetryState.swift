/// The state of a ``Publishers/Retry`` subscription, under its lock: the subscriber, the
/// publisher to subscribe again, the current upstream subscription, the outstanding demand and
/// the attempts left.
@usableFromInline
internal struct RetryState<Upstream: Publisher, Downstream: Subscriber> {
    /// `nil` once the stream has ended or been cancelled.
    @usableFromInline var downstream: Downstream?
    /// The publisher to subscribe again; released with the downstream.
    @usableFromInline var upstream: Upstream?
    @usableFromInline var source: (any Subscription)?
    @usableFromInline var downstreamSubscribed = false
    @usableFromInline var demand = Subscribers.Demand.none
    /// Resubscriptions left; `nil` for unlimited. A negative count never runs out.
    @usableFromInline var retriesLeft: Int?
    /// The resubscribe loop is running on some thread.
    @usableFromInline var resubscribing = false
    /// A source failed inside the subscribe call: the loop goes round again.
    @usableFromInline var resubscribePending = false

    @inlinable
    init(upstream: Upstream, downstream: Downstream, retriesLeft: Int?) {
        self.upstream = upstream
        self.downstream = downstream
        self.retriesLeft = retriesLeft
    }
}
