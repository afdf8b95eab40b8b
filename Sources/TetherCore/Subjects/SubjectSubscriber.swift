extension Publisher {
    /// Attaches the specified subject to this publisher.
    ///
    /// The subject receives, as in Combine, a subscription through its
    /// ``Subject/send(subscription:)`` that forwards its requests (a subject asks for
    /// `.unlimited` once any of its own subscribers has demand) and its cancellation to this
    /// publisher; then each value through ``Subject/send(_:)`` and the completion through
    /// ``Subject/send(completion:)``, on the thread that delivers them.
    /// - Parameter subject: The subject to attach to this publisher.
    /// - Returns: A cancellable instance, which you use to end the subscription; deallocating it
    ///   also ends the subscription. Ending it cancels the upstream subscription and releases
    ///   the subject; the subject itself is not completed.
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
/// and releases both. After the completion or a cancel it holds nothing, which breaks the cycle
/// between it and a subject that keeps it as an upstream.
@usableFromInline
internal final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    @usableFromInline typealias Input = Downstream.Output
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline
    internal enum Status {
        case awaitingSubscription(Downstream)
        case subscribed(Downstream, any Subscription)
        case terminal
    }

    @usableFromInline
    internal let status: Locked<Status>

    @inlinable
    internal init(_ subject: Downstream) {
        status = Locked(.awaitingSubscription(subject))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Keeps the upstream subscription and hands the subject this relay as its subscription.
    @inlinable
    internal func receive(subscription: any Subscription) {
        let subject = status.withLock { status -> Downstream? in
            guard case .awaitingSubscription(let subject) = status else { return nil }
            status = .subscribed(subject, subscription)
            return subject
        }
        guard let subject else {
            subscription.cancel()
            return
        }
        subject.send(subscription: self)
    }

    @inlinable
    internal func receive(_ input: Downstream.Output) -> Subscribers.Demand {
        let subject = status.withLock { status -> Downstream? in
            guard case .subscribed(let subject, _) = status else { return nil }
            return subject
        }
        subject?.send(input)
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let previous = status.withLock { status -> Status in
            defer { status = .terminal }
            return status
        }
        if case .subscribed(let subject, _) = previous {
            subject.send(completion: completion)
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: Subject was asked for .none")
        let upstream = status.withLock { status -> (any Subscription)? in
            guard case .subscribed(_, let upstream) = status else { return nil }
            return upstream
        }
        upstream?.request(demand)
    }

    @inlinable
    internal func cancel() {
        let previous = status.withLock { status -> Status in
            defer { status = .terminal }
            return status
        }
        if case .subscribed(_, let upstream) = previous {
            upstream.cancel()
        }
    }

    @usableFromInline
    internal var description: String { "Subject" }

    @usableFromInline
    internal var customMirror: Mirror {
        let current = status.withLock { $0 }
        let subject: Downstream?
        let upstream: (any Subscription)?
        switch current {
        case .awaitingSubscription(let held):
            (subject, upstream) = (held, nil)
        case .subscribed(let held, let subscription):
            (subject, upstream) = (held, subscription)
        case .terminal:
            (subject, upstream) = (nil, nil)
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
