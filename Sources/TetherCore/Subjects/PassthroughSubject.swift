/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` has no initial value or buffer of the
/// most recently published element: a value sent to a subscriber with no outstanding demand is
/// dropped for that subscriber, as in Combine. A subscriber that arrives after the completion
/// receives the completion at once.
///
/// `send` may be called from any thread. A subscriber receives the signals of different threads
/// one at a time: a `send` from another thread while the subscriber is busy waits for it and
/// then delivers its own value, so `send` returns once its value has been offered to every
/// subscriber. As in Combine, a value takes the subscriber's demand when it is sent: one sent while
/// the subscriber has none left is dropped at once, without waiting, even if the call under way
/// then returns more. A `send` (or `send(completion:)`) from inside a subscriber's `receive`, on the
/// thread delivering to it, is delivered at once, nested in that call, as in Combine: a
/// subscriber that sends before it records what it received records the newer value first, and
/// one that comes later in the order receives the newer value before the one whose delivery sent
/// it. A nested value takes the subscriber's demand as it stands, before the outer call returns
/// more. Nothing bounds the nesting: a subscriber that always sends again recurses, in Combine
/// as here.
public final class PassthroughSubject<Output, Failure: Error>: Subject, SpecializedSubjectParent, ConduitAttaching,
    @unchecked Sendable
{
    /// `detach` and `acknowledgeDownstreamDemand`, specialised (see ``SubjectParentSignal``).
    @usableFromInline
    internal let control: (AnyObject, SubjectParentSignal) -> Void

    /// Guards `hub`.
    @usableFromInline
    internal let lock = Locked(())

    /// Kept outside the lock: `deinit` runs unspecialised, and there a lock around generic state
    /// costs a run-time type lookup per wrapper, while the hub alone costs none (see
    /// ``SubjectHub``).
    @usableFromInline @exclusivity(unchecked)
    internal var hub = SubjectHub<Output, Failure>()

    /// Creates a subject with no subscribers.
    @inlinable
    public init() {
        control = PassthroughSubject.parentEntry
    }

    deinit {
        // Read without the lock: nothing else reaches a subject being deinitialised (its
        // subscriptions hold it), see Docs/SubscriptionKernel.md.
        for upstream in hub.upstreams {
            upstream.cancel()
        }
    }

    /// Runs `body` on the hub under the lock.
    @inlinable @inline(__always)
    internal func withHub<Result>(_ body: (inout SubjectHub<Output, Failure>) -> Result) -> Result {
        lock.withLock { _ in body(&hub) }
    }

    /// Attaches `subscriber`, or completes it at once if the subject has completed. A completion
    /// sent from another thread while it is being attached reaches it after its subscription.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        attachKeeping(subscriber)
    }

    /// Attaches `subscriber` as given (see ``ConduitAttaching``).
    @inlinable
    package func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectSubscription(kind: .passthroughSubject, downstream: subscriber, parent: self, latest: nil)
        if let completion = withHub({ $0.attach(SubjectEntry(conduit)) }) {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
        } else {
            conduit.start(subscriber)
        }
    }

    /// Attaches a sink made by `sink` (see ``SubjectSink``).
    @inlinable
    package func attachSink(_ sink: SubjectSink<Output, Failure>) {
        // A sink's demand is `.unlimited` from the start: the subject's upstreams are asked now,
        // as a subscription's first request asks them (none, once the subject has completed).
        let (completion, upstreams) = withHub { ($0.attach(sink.entry), $0.acknowledgeDownstreamDemand()) }
        if let completion {
            _ = sink.inTurn { sink.complete(completion, nested: false) }
        }
        for upstream in upstreams {
            upstream.request(.unlimited)
        }
    }

    /// Sends a value to every subscriber that has demand for it; ignored after completion.
    /// - Parameter input: The value to send.
    @inlinable
    public func send(_ input: Output) {
        withHub({ $0.receivers }).offer(input)
    }

    /// Sends the completion to every subscriber; only the first completion counts.
    /// - Parameter completion: How the subject finished.
    public func send(completion: Subscribers.Completion<Failure>) {
        guard let conduits = withHub({ $0.complete(completion) }) else { return }
        for entry in conduits {
            entry.conduit.finish(completion)
        }
    }

    /// Keeps `subscription` as an upstream, asking it for `.unlimited` once any subscriber has
    /// demand. The subject keeps its upstreams, past its completion too, until it is
    /// deinitialised, and cancels them then, as Combine's does.
    /// - Parameter subscription: The upstream subscription.
    public func send(subscription: any Subscription) {
        if withHub({ $0.receive(upstream: subscription) }) {
            subscription.request(.unlimited)
        }
    }

    @usableFromInline
    package func detach(_ conduit: AnyObject) {
        control(self, .detach(conduit))
    }

    @usableFromInline
    package func acknowledgeDownstreamDemand() {
        control(self, .acknowledgeDownstreamDemand)
    }

    @inlinable
    package func detachNow(_ conduit: AnyObject) {
        _ = withHub { $0.detach(conduit) }
    }

    @inlinable
    package func acknowledgeDownstreamDemandNow() {
        for upstream in withHub({ $0.acknowledgeDownstreamDemand() }) {
            upstream.request(.unlimited)
        }
    }
}

extension PassthroughSubject: SubscriberErasing {}
