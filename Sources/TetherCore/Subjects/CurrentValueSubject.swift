/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// Unlike ``PassthroughSubject``, `CurrentValueSubject` keeps the most recently published
/// element: a new subscriber receives the current value as soon as it has demand, and a
/// subscriber that had no demand when a value was sent receives the latest value once it asks.
/// As in Combine, it is the subscriber's next request that delivers that value, not demand
/// returned from `receive(_:)`, and a newer value delivered first takes its place.
/// Calling ``send(_:)`` also updates ``value``, and setting ``value`` sends it. After completion
/// neither changes anything.
///
/// Values sent from inside a subscriber's `receive`, or from other threads, are delivered as
/// ``PassthroughSubject`` delivers them: from inside, at once and nested, so a subscriber later in
/// the order receives the newer value before the one whose delivery sent it, and ends on the
/// older value while ``value`` holds the newer, as in Combine; from another thread, weighed
/// against demand when sent, and delivered once the subscriber is free.
///
/// `@unchecked Sendable`: its value and subscriptions (`current`, `hub`) are touched only under its
/// lock; the control entry is an immutable closure.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, SpecializedSubjectParent, ConduitAttaching,
    @unchecked Sendable
{
    /// `detach` and `acknowledgeDownstreamDemand`, specialised (see ``SubjectParentSignal``).
    @usableFromInline
    internal let control: (AnyObject, SubjectParentSignal) -> Void

    /// Guards `hub` and `current`.
    @usableFromInline
    internal let lock = Locked(())

    /// Kept outside the lock, as ``PassthroughSubject``'s: `deinit` runs unspecialised, and a lock
    /// or a struct around generic state costs it run-time type lookups, which a hub (see
    /// ``SubjectHub``) and a value of the class's own generic type do not.
    @usableFromInline @exclusivity(unchecked)
    internal var hub = SubjectHub<Output, Failure>()

    /// The value ``value`` reads.
    @usableFromInline @exclusivity(unchecked)
    internal var current: Output

    /// The value wrapped by this subject, published as a new element whenever it changes.
    ///
    /// Setting it after the subject has completed still changes it (as in Combine), though
    /// nothing is published; ``send(_:)`` after completion changes nothing.
    public var value: Output {
        get { lock.withLock { _ in current } }
        set { publish(newValue, keptAfterCompletion: true) }
    }

    /// Creates a current value subject with the given initial value.
    /// - Parameter value: The initial value to publish.
    @inlinable
    public init(_ value: Output) {
        control = CurrentValueSubject.parentEntry
        current = value
        // As in Combine, an upstream is asked for `.unlimited` as soon as it arrives, whether
        // or not any subscriber has demand yet: the subject always has a value to keep.
        hub.hasDownstreamDemand = true
    }

    deinit {
        // Read without the lock: nothing else reaches a subject being deinitialised (its
        // subscriptions hold it), see Docs/SubscriptionKernel.md.
        for upstream in hub.upstreams {
            upstream.cancel()
        }
    }

    /// Attaches `subscriber`; it receives the current value on its first demand. A completion
    /// sent from another thread while it is being attached reaches it after its subscription.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
        attachKeeping(subscriber)
    }

    /// Attaches `subscriber` as given (see ``ConduitAttaching``).
    @inlinable
    package func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        // The conduit takes the current value under the lock, so no send can slip between.
        let (conduit, completion) = lock.withLock {
            _ -> (SubjectSubscription<S>?, Subscribers.Completion<Failure>?) in
            if let completion = hub.completion { return (nil, completion) }
            let conduit = SubjectSubscription(
                kind: .currentValueSubject, downstream: subscriber, parent: self, latest: current)
            _ = hub.attach(SubjectEntry(conduit))
            return (conduit, nil)
        }
        if let conduit {
            conduit.start(subscriber)
        } else if let completion {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
        }
    }

    /// Attaches a sink made by `sink` (see ``SubjectSink``) and delivers the current value to it
    /// first.
    @inlinable
    package func attachSink(_ sink: SubjectSink<Output, Failure>) {
        sink.attach {
            lock.withLock { _ in
                if let completion = hub.completion { return (nil, completion) }
                _ = hub.attach(sink.entry)
                return (current, nil)
            }
        }
    }

    /// Sets the current value and sends it to every subscriber; ignored after completion.
    /// - Parameter input: The new value.
    @inlinable
    public func send(_ input: Output) {
        publish(input, keptAfterCompletion: false)
    }

    /// Stores `input` and offers it to every subscriber; after completion it offers nothing, and
    /// stores it only when `keptAfterCompletion`.
    @inlinable
    internal func publish(_ input: Output, keptAfterCompletion: Bool) {
        let receivers = lock.withLock { _ -> SubjectReceivers<Output, Failure> in
            guard !hub.isCompleted else {
                if keptAfterCompletion { current = input }
                return SubjectReceivers()
            }
            current = input
            return hub.receivers
        }
        receivers.offer(input)
    }

    /// Sends the completion to every subscriber; only the first completion counts.
    /// - Parameter completion: How the subject finished.
    public func send(completion: Subscribers.Completion<Failure>) {
        guard let conduits = lock.withLock({ _ in hub.complete(completion) }) else { return }
        for entry in conduits {
            entry.conduit.finish(completion)
        }
    }

    /// Keeps `subscription` as an upstream and asks it for `.unlimited` at once. The subject
    /// keeps its upstreams, past its completion too, until it is deinitialised, and cancels them
    /// then, as Combine's does.
    /// - Parameter subscription: The upstream subscription.
    public func send(subscription: any Subscription) {
        if lock.withLock({ _ in hub.receive(upstream: subscription) }) {
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
        _ = lock.withLock { _ in hub.detach(conduit) }
    }

    @inlinable
    package func acknowledgeDownstreamDemandNow() {
        for upstream in lock.withLock({ _ in hub.acknowledgeDownstreamDemand() }) {
            upstream.request(.unlimited)
        }
    }
}

extension CurrentValueSubject: SubscriberErasing {}
