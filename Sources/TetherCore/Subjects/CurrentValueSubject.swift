/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// Unlike ``PassthroughSubject``, `CurrentValueSubject` keeps the most recently published
/// element: a new subscriber receives the current value as soon as it has demand, and a
/// subscriber that had no demand when a value was sent receives the latest value once it asks.
/// Calling ``send(_:)`` also updates ``value``, and setting ``value`` sends it. After completion
/// neither changes anything.
///
/// `@unchecked Sendable`: its value and subscriptions live in `state`, touched only under its lock;
/// the control entry is an immutable closure.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, SpecializedSubjectParent, ConduitAttaching,
    @unchecked Sendable
{
    @usableFromInline
    internal struct State {
        @usableFromInline var hub = SubjectHub<Output, Failure>()
        @usableFromInline var value: Output

        @inlinable
        init(value: Output) {
            self.value = value
            // As in Combine, an upstream is asked for `.unlimited` as soon as it arrives, whether
            // or not any subscriber has demand yet: the subject always has a value to keep.
            hub.hasDownstreamDemand = true
        }
    }

    /// `detach` and `acknowledgeDownstreamDemand`, specialised (see ``SubjectParentSignal``).
    @usableFromInline
    internal let control: (AnyObject, SubjectParentSignal) -> Void

    @usableFromInline
    internal let state: Locked<State>

    /// The value wrapped by this subject, published as a new element whenever it changes.
    ///
    /// Setting it after the subject has completed still changes it (as in Combine), though
    /// nothing is published; ``send(_:)`` after completion changes nothing.
    public var value: Output {
        get { state.withLock { $0.value } }
        set { publish(newValue, keptAfterCompletion: true) }
    }

    /// Creates a current value subject with the given initial value.
    /// - Parameter value: The initial value to publish.
    @inlinable
    public init(_ value: Output) {
        control = CurrentValueSubject.parentEntry
        state = Locked(State(value: value))
    }

    deinit {
        for upstream in state.withLock({ $0.hub.upstreams }) {
            upstream.cancel()
        }
    }

    /// Attaches `subscriber`; it receives the current value on its first demand.
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        attachKeeping(subscriber)
    }

    /// Attaches `subscriber` as given (see ``ConduitAttaching``).
    @inlinable
    package func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        // The conduit takes the current value under the lock, so no send can slip between.
        let (conduit, completion) = state.withLock {
            state -> (SubjectSubscription<S>?, Subscribers.Completion<Failure>?) in
            if let completion = state.hub.completion { return (nil, completion) }
            let conduit = SubjectSubscription(
                kind: .currentValueSubject, downstream: subscriber, parent: self, latest: state.value)
            _ = state.hub.attach(SubjectEntry(conduit))
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
            state.withLock { state in
                if let completion = state.hub.completion { return (nil, completion) }
                _ = state.hub.attach(sink.entry)
                return (state.value, nil)
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
        let receivers = state.withLock { state -> SubjectReceivers<Output, Failure> in
            guard !state.hub.isCompleted else {
                if keptAfterCompletion { state.value = input }
                return SubjectReceivers()
            }
            state.value = input
            return state.hub.conduits
        }
        receivers.offer(input)
    }

    /// Sends the completion to every subscriber; only the first completion counts.
    /// - Parameter completion: How the subject finished.
    public func send(completion: Subscribers.Completion<Failure>) {
        guard let (conduits, _) = state.withLock({ $0.hub.complete(completion) }) else { return }
        for entry in conduits {
            entry.conduit.finish(completion)
        }
    }

    /// Keeps `subscription` as an upstream and asks it for `.unlimited` at once.
    /// - Parameter subscription: The upstream subscription.
    public func send(subscription: any Subscription) {
        if state.withLock({ $0.hub.receive(upstream: subscription) }) {
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
        _ = state.withLock { $0.hub.detach(conduit) }
    }

    @inlinable
    package func acknowledgeDownstreamDemandNow() {
        for upstream in state.withLock({ $0.hub.acknowledgeDownstreamDemand() }) {
            upstream.request(.unlimited)
        }
    }
}
