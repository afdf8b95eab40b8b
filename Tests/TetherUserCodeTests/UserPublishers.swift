import Tether

/// A publisher written the way application code usually writes one, so the tests in this target
/// drive Tether's operators from the user's side of the API.
///
/// Each keeps what it is handed in `receive(subscriber:)` and delivers later, from another
/// function: the shape that meets Swift 6.3.1's stack-promotion bug in optimised builds
/// (`Docs/StackPromotionReproducer.md`) when Tether's specialised code inlines it.
protocol UserSource {
    /// Gives every kept subscriber its subscription and then `values`, one by one, honouring
    /// demand, and finishes.
    func deliver(_ values: [Int])
}

/// A publisher class that keeps `AnySubscriber(subscriber)`.
final class KeepingPublisher: Publisher, UserSource {
    typealias Output = Int
    typealias Failure = Never

    private var subscribers: [AnySubscriber<Int, Never>] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscribers.append(AnySubscriber(subscriber))
    }

    @inline(never)
    func deliver(_ values: [Int]) {
        for subscriber in subscribers {
            let subscription = UserSubscription()
            subscriber.receive(subscription: subscription)
            for value in values where subscription.take() {
                subscription.add(subscriber.receive(value))
            }
            subscriber.receive(completion: .finished)
        }
    }
}

/// A publisher struct that keeps its subscribers as closures in a class it shares.
struct ClosurePublisher: Publisher, UserSource {
    typealias Output = Int
    typealias Failure = Never

    final class Registry {
        var attach: [(UserSubscription, [Int]) -> Void] = []

        @inline(never)
        func deliver(_ values: [Int]) {
            for attach in self.attach { attach(UserSubscription(), values) }
        }
    }

    let registry: Registry

    func deliver(_ values: [Int]) { registry.deliver(values) }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        registry.attach.append { subscription, values in
            subscriber.receive(subscription: subscription)
            for value in values where subscription.take() {
                subscription.add(subscriber.receive(value))
            }
            subscriber.receive(completion: .finished)
        }
    }
}

/// A publisher class that subscribes its subscriber later: it keeps a subscription object of
/// its own, generic over the subscriber, and starts it from `deliver`.
final class LaterPublisher: Publisher, UserSource {
    typealias Output = Int
    typealias Failure = Never

    private var starts: [([Int]) -> Void] = []

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        let pending = PendingSubscription(subscriber)
        starts.append(pending.start)
    }

    @inline(never)
    func deliver(_ values: [Int]) {
        for start in starts { start(values) }
    }
}

/// The subscription a `LaterPublisher` keeps, holding its subscriber directly.
final class PendingSubscription<S: Subscriber>: @unchecked Sendable where S.Input == Int {
    private let subscriber: S
    private let subscription = UserSubscription()

    init(_ subscriber: S) { self.subscriber = subscriber }

    func start(_ values: [Int]) {
        subscriber.receive(subscription: subscription)
        for value in values where subscription.take() {
            subscription.add(subscriber.receive(value))
        }
        subscriber.receive(completion: .finished)
    }
}

/// A plain demand counter, as user code writes one (single-threaded use only).
final class UserSubscription: Subscription, @unchecked Sendable {
    private var demand = Subscribers.Demand.none
    private var cancelled = false

    func request(_ demand: Subscribers.Demand) { self.demand += demand }

    func cancel() { cancelled = true }

    /// Adds what a subscriber asked for on receiving a value.
    func add(_ demand: Subscribers.Demand) { self.demand += demand }

    /// Takes one unit of demand; `false` when there is none or the subscription is cancelled.
    func take() -> Bool {
        guard !cancelled, demand > .none else { return false }
        demand -= 1
        return true
    }
}
