extension Publisher {
    /// Attaches the specified subject to this publisher.
    ///
    /// The subject receives, as in Combine, a subscription through its
    /// ``Subject/send(subscription:)`` that forwards its requests (a subject asks for
    /// `.unlimited` once any of its own subscribers has demand) and its cancellation to this
    /// publisher; then each value through ``Subject/send(_:)`` and the completion through
    /// ``Subject/send(completion:)``, on the thread that delivers them.
    /// - Parameter subject: The subject to attach to this publisher.
    /// As in Combine, the subscription holds the subject weakly: the subject holds its upstream
    /// subscription, and whoever uses the subject keeps it alive. Once the subject is gone,
    /// values reach nobody.
    /// - Returns: A cancellable instance, which you use to end the subscription; deallocating it
    ///   also ends the subscription. Ending it cancels the upstream subscription; the subject
    ///   itself is not completed.
    @inlinable
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
    where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        subscribe(subscriber)
        return AnyCancellable(object: subscriber)
    }
}

/// The subscriber behind ``Publisher/subscribe(_:)-(S)``, and the subscription its
/// subject receives.
///
/// It stands between the upstream subscription and the subject so that cancelling (from the
/// returned `AnyCancellable`, or by the subject when it is deallocated) cancels the upstream
/// and releases it. It holds the subject weakly, as Combine's does: the subject keeps it as an
/// upstream, so a strong reference would be a cycle.
@usableFromInline
internal final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, SpecializedControl,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    @usableFromInline typealias Input = Downstream.Output
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    internal struct State {
        @usableFromInline var status = UpstreamStatus.awaitingSubscription
        /// `nil` once the subject is gone, or the stream is over.
        @usableFromInline weak var subject: Downstream?

        @inlinable
        init(subject: Downstream) {
            self.subject = subject
        }

        /// Ends the stream: the status it had, and the subject, if still there.
        @inlinable
        mutating func end() -> (UpstreamStatus, Downstream?) {
            defer {
                status = .terminal
                subject = nil
            }
            return (status, subject)
        }
    }

    @usableFromInline
    internal let status: Locked<State>

    /// `request` and `cancel`, specialised: they arrive through `any Subscription`, whose witness
    /// runs the unspecialised body (see ``ControlSignal``).
    @usableFromInline
    internal let control: (AnyObject, ControlSignal) -> Void

    @inlinable
    internal init(_ subject: Downstream) {
        status = Locked(State(subject: subject))
        control = SubjectSubscriber.controlEntry
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Keeps the upstream subscription and hands the subject this relay as its subscription.
    @inlinable
    internal func receive(subscription: any Subscription) {
        let (accepted, subject) = status.withLock { state -> (Bool, Downstream?) in
            guard case .awaitingSubscription = state.status else { return (false, nil) }
            state.status = .subscribed(subscription)
            return (true, state.subject)
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        subject?.send(subscription: self)
    }

    @inlinable
    internal func receive(_ input: Downstream.Output) -> Subscribers.Demand {
        let subject = status.withLock { state -> Downstream? in
            guard state.status.isSubscribed() else { return nil }
            return state.subject
        }
        subject?.send(input)
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let (previous, subject) = status.withLock { $0.end() }
        if case .subscribed = previous {
            subject?.send(completion: completion)
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        control(self, .request(demand))
    }

    @inlinable
    internal func cancel() {
        control(self, .cancel)
    }

    @inlinable
    internal func requestNow(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: Subject was asked for .none")
        let upstream = status.withLock { state -> (any Subscription)? in
            guard case .subscribed(let upstream) = state.status else { return nil }
            return upstream
        }
        upstream?.request(demand)
    }

    @inlinable
    internal func cancelNow() {
        let (previous, _) = status.withLock { $0.end() }
        if case .subscribed(let upstream) = previous {
            upstream.cancel()
        }
    }

    @usableFromInline
    internal var description: String { "Subject" }

    @usableFromInline
    internal var customMirror: Mirror {
        let (current, subject) = status.withLock { ($0.status, $0.subject) }
        let upstream: (any Subscription)?
        switch current {
        case .subscribed(let subscription): upstream = subscription
        case .awaitingSubscription, .terminal: upstream = nil
        }
        return Mirror(
            self,
            children: [
                ("downstreamSubject", subject as Any),
                ("upstreamSubscription", upstream as Any),
                ("subject", subject as Any),
            ])
    }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
