import TetherCore

/// A publisher that outside callers feed with values, and that can neither fail nor finish.
///
/// A relay is a ``Subject`` without completion: its failure type is `Never`, and nothing can end
/// it, so its subscribers stay attached until they cancel. Values are sent with ``accept(_:)``.
/// See ``PassthroughRelay`` and ``CurrentValueRelay``.
public protocol Relay<Output>: AnyObject, Publisher where Failure == Never {
    /// Sends a value to the relay's subscribers.
    /// - Parameter value: The value to send.
    func accept(_ value: Output)
}

extension Relay where Output == Void {
    /// Sends a void value to the relay's subscribers.
    @inlinable
    public func accept() {
        accept(())
    }
}

extension Publisher where Failure == Never {
    /// Feeds every value of this publisher to `relay`, which it never completes.
    ///
    /// The upstream is asked for `.unlimited` at once, and each value is passed to
    /// ``Relay/accept(_:)`` on the thread that delivers it. The upstream's completion is not
    /// forwarded (a relay cannot finish): it ends this connection, releasing the relay and the
    /// upstream subscription, and the relay's subscribers stay attached.
    /// - Parameter relay: The relay to feed.
    /// - Returns: A cancellable that ends the connection; deallocating it ends it too. Ending it
    ///   cancels the upstream subscription and releases the relay; the relay itself is unchanged.
    @inlinable
    public func subscribe<R: Relay>(_ relay: R) -> AnyCancellable where R.Output == Output {
        let subscriber = RelaySubscriber(relay)
        subscribe(subscriber)
        return AnyCancellable(object: subscriber)
    }
}

/// The subscriber behind ``Publisher/subscribe(_:)-(Relay)``.
///
/// It holds the relay only while connected: the upstream's completion or a cancel releases the
/// relay and the upstream subscription at once, even if the upstream keeps its reference to this
/// subscriber for longer.
@usableFromInline
internal final class RelaySubscriber<Target: Relay>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline typealias Input = Target.Output
    @usableFromInline typealias Failure = Never

    @usableFromInline
    internal enum Link {
        case awaitingSubscription(Target)
        case subscribed(Target, any Subscription)
        case terminal
    }

    @usableFromInline
    internal let status: Locked<Link>

    @inlinable
    internal init(_ relay: Target) {
        status = Locked(.awaitingSubscription(relay))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        let accepted = status.withLock { status -> Bool in
            guard case .awaitingSubscription(let relay) = status else { return false }
            status = .subscribed(relay, subscription)
            return true
        }
        if accepted {
            subscription.request(.unlimited)
        } else {
            subscription.cancel()
        }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        let relay = status.withLock { status -> Target? in
            guard case .subscribed(let relay, _) = status else { return nil }
            return relay
        }
        relay?.accept(input)
        return .none
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<Never>) {
        // Released outside the lock.
        _ = status.withLock { status -> Link in
            defer { status = .terminal }
            return status
        }
    }

    @inlinable
    internal func cancel() {
        let previous = status.withLock { status -> Link in
            defer { status = .terminal }
            return status
        }
        if case .subscribed(_, let upstream) = previous {
            upstream.cancel()
        }
    }

    @usableFromInline
    internal var description: String { "Relay" }

    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
