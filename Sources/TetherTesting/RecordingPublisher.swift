import Synchronization
import Tether
import TetherCore

/// What a subscriber asked of a ``RecordingSubscription``.
public enum SubscriptionEvent: Equatable, Sendable, CustomStringConvertible {
    /// `request(_:)` was called with this demand.
    case requested(Subscribers.Demand)
    /// `cancel()` was called.
    case cancelled

    /// `.requested(max(1))` or `.cancelled`.
    public var description: String {
        switch self {
        case .requested(let demand): return ".requested(\(demand))"
        case .cancelled: return ".cancelled"
        }
    }
}

/// A subscription that records every request and cancel, for tests of operators and subscribers.
///
/// `@unchecked Sendable`: its log is under its lock.
public final class RecordingSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    private let log = Locked([SubscriptionEvent]())

    /// Creates a recording subscription.
    public init() {}

    /// Everything asked of this subscription, in order.
    public var events: [SubscriptionEvent] { log.withLock { $0 } }

    /// The total demand requested so far.
    public var totalDemand: Subscribers.Demand {
        events.reduce(.none) { total, event in
            if case .requested(let demand) = event { return total + demand }
            return total
        }
    }

    /// Records the request.
    /// - Parameter demand: The demand requested.
    public func request(_ demand: Subscribers.Demand) {
        log.withLock { $0.append(.requested(demand)) }
    }

    /// Records the cancel.
    public func cancel() {
        log.withLock { $0.append(.cancelled) }
    }

    /// `"RecordingSubscription"`.
    public var description: String { "RecordingSubscription" }
}

/// A publisher under the test's control: it hands each subscriber a ``RecordingSubscription``
/// and sends exactly what the test tells it to, ignoring demand, so tests can drive an operator
/// or subscriber through any sequence of signals and see what it asked upstream.
///
/// `@unchecked Sendable`: its subscribers are under its lock.
public final class RecordingPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    private struct Attached {
        var subscriber: AnySubscriber<Output, Failure>
        var subscription: RecordingSubscription
    }

    private let attached = Locked([Attached]())

    /// Creates a publisher with no subscribers.
    public init() {}

    /// Attaches `subscriber` and hands it a fresh ``RecordingSubscription``.
    /// - Parameter subscriber: The subscriber to attach.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = RecordingSubscription()
        attached.withLock {
            $0.append(Attached(subscriber: AnySubscriber(subscriber), subscription: subscription))
        }
        subscriber.receive(subscription: subscription)
    }

    /// The subscription handed to the most recent subscriber.
    public var subscription: RecordingSubscription? {
        attached.withLock { $0.last?.subscription }
    }

    /// The subscriptions handed out so far, in order.
    public var subscriptions: [RecordingSubscription] {
        attached.withLock { $0.map(\.subscription) }
    }

    /// Sends a value to every subscriber, regardless of demand.
    /// - Parameter value: The value to send.
    /// - Returns: The demand each subscriber returned, in subscription order.
    @discardableResult
    public func send(_ value: Output) -> [Subscribers.Demand] {
        subscribers.map { $0.receive(value) }
    }

    /// Sends a completion to every subscriber.
    /// - Parameter completion: The completion to send.
    public func send(completion: Subscribers.Completion<Failure>) {
        for subscriber in subscribers { subscriber.receive(completion: completion) }
    }

    /// Forgets every subscriber, as a publisher does after its completion.
    public func releaseSubscribers() {
        _ = attached.withLock { state -> [Attached] in
            defer { state.removeAll() }
            return state
        }
    }

    private var subscribers: [AnySubscriber<Output, Failure>] {
        attached.withLock { $0.map(\.subscriber) }
    }
}
