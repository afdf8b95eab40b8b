import Synchronization
import Tether

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Verifies that a subscriber keeps the subscriber side of the Reactive Streams contract, as
/// it applies to Combine's protocols.
///
/// The checker plays a strict publisher: it hands the subscriber an instrumented subscription
/// and sends values only within the demand the subscriber expressed, so a subscriber that
/// assumes values it never asked for sees none.
///
/// The checks, by rule:
/// - §2.1 the subscriber signals demand (on subscription, or when `requestDemand` asks it to);
/// - §2.3 `receive(completion:)` calls neither `request` nor `cancel`;
/// - §2.5 a second subscription, while one is active, is cancelled, and the first is kept;
/// - §2.7 `request` and `cancel` never overlap from different threads;
/// - §2.8 values still pending after the subscriber cancels are taken without trapping, and
///   cancelling reaches the subscription;
/// - §2.9/§2.10 `.finished` and `.failure` are taken with or without a preceding request;
/// - §3.9 (Combine) the subscriber never requests `.none`;
/// - Combine: the subscriber lets go of its subscription after the completion and after it
///   cancels (checked with a weak reference), which breaks the subscriber–subscription cycle.
public enum SubscriberConformance {
    /// Verifies a subscriber.
    ///
    /// - Parameters:
    ///   - values: How many values to offer in the demand check.
    ///   - make: Makes a fresh subscriber; called once per check.
    ///   - value: Makes the value with the given index.
    ///   - failure: A failure to complete with for §2.10; `nil` skips it (for `Never`).
    ///   - requestDemand: Asks the subscriber to request demand, for subscribers that request
    ///     on a caller's signal rather than in `receive(subscription:)`; `nil` when they do
    ///     not need asking.
    ///   - cancel: Makes the subscriber cancel (for example `{ $0.cancel() }` for a
    ///     `Subscribers.Sink`); `nil` skips the cancellation checks.
    /// - Returns: The violations found; empty when the subscriber conforms.
    public static func verify<S: Subscriber>(
        values: Int = 5,
        make: () -> S,
        value: (Int) -> S.Input,
        failure: S.Failure? = nil,
        requestDemand: ((S) -> Void)? = nil,
        cancel: ((S) -> Void)? = nil
    ) -> [ConformanceViolation] {
        var violations: [ConformanceViolation] = []
        func check(_ name: String, _ body: (ViolationLog) -> Void) {
            let log = ViolationLog(check: name)
            body(log)
            violations += log.violations
        }

        check("signals demand, takes values within it, then completes") { log in
            let subscriber = make()
            var subscription: InstrumentedSubscription? = InstrumentedSubscription(log: log)
            weak let released = subscription
            if let live = subscription {
                subscriber.receive(subscription: live)
                requestDemand?(subscriber)
                if live.totalDemand == .none {
                    log.record("2.1", "the subscriber requested nothing after receive(subscription:).")
                }
                var sent = 0
                var returned = Subscribers.Demand.none
                while sent < values && Subscribers.Demand.max(sent) < live.totalDemand + returned {
                    returned += subscriber.receive(value(sent))
                    sent += 1
                }
                live.deliverCompletion { subscriber.receive(completion: .finished) }
            }
            subscription = nil
            if released != nil {
                log.record("Combine", "the subscriber still holds its subscription after the completion.")
            }
        }

        check("cancels a second subscription") { log in
            let subscriber = make()
            let first = InstrumentedSubscription(log: log)
            let second = InstrumentedSubscription(log: log)
            subscriber.receive(subscription: first)
            requestDemand?(subscriber)
            subscriber.receive(subscription: second)
            if !second.isCancelled {
                log.record("2.5", "a second subscription, received while the first was active, was not cancelled.")
            }
            if second.totalDemand != .none {
                log.record("2.5", "the subscriber requested \(second.totalDemand) from a second subscription.")
            }
            if first.isCancelled {
                log.record("2.5", "receiving a second subscription cancelled the first.")
            }
            first.deliverCompletion { subscriber.receive(completion: .finished) }
        }

        if let cancel {
            check("takes values after cancelling") { log in
                let subscriber = make()
                var subscription: InstrumentedSubscription? = InstrumentedSubscription(log: log)
                weak let released = subscription
                if let live = subscription {
                    subscriber.receive(subscription: live)
                    requestDemand?(subscriber)
                    cancel(subscriber)
                    if !live.isCancelled {
                        log.record("2.8", "cancelling the subscriber did not cancel its subscription.")
                    }
                    // Values already requested may still be on their way (§2.8).
                    var sent = 0
                    while sent < 2 && Subscribers.Demand.max(sent) < live.totalDemand {
                        _ = subscriber.receive(value(sent))
                        sent += 1
                    }
                }
                subscription = nil
                if released != nil {
                    log.record("Combine", "the subscriber still holds its subscription after cancelling it.")
                }
            }
        }

        check("takes .finished without a request") { log in
            let subscriber = make()
            let subscription = InstrumentedSubscription(log: log)
            subscriber.receive(subscription: subscription)
            subscription.deliverCompletion { subscriber.receive(completion: .finished) }
        }

        if let failure {
            check("takes a failure without a request") { log in
                let subscriber = make()
                let subscription = InstrumentedSubscription(log: log)
                subscriber.receive(subscription: subscription)
                subscription.deliverCompletion { subscriber.receive(completion: .failure(failure)) }
            }
            check("takes a failure after a request") { log in
                let subscriber = make()
                let subscription = InstrumentedSubscription(log: log)
                subscriber.receive(subscription: subscription)
                requestDemand?(subscriber)
                subscription.deliverCompletion { subscriber.receive(completion: .failure(failure)) }
            }
        }
        return violations
    }
}

/// The subscription ``SubscriberConformance`` hands out: it records demand and cancellation
/// and checks how the subscriber calls it.
///
/// `@unchecked Sendable`: its state is under its lock, `callers` is atomic, and the log guards
/// itself.
final class InstrumentedSubscription: Subscription, CustomStringConvertible, @unchecked Sendable {
    private struct State {
        var totalDemand = Subscribers.Demand.none
        var cancelled = false
        var completing = false
    }

    private let state = Guarded(State())
    private let callers = Atomic<Int>(0)
    private let log: ViolationLog

    let combineIdentifier = CombineIdentifier()

    init(log: ViolationLog) {
        self.log = log
    }

    var totalDemand: Subscribers.Demand { state.withLock { $0.totalDemand } }
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs the subscriber's `receive(completion:)`, watching for calls back (§2.3).
    func deliverCompletion(_ body: () -> Void) {
        state.withLock { $0.completing = true }
        body()
        state.withLock { $0.completing = false }
    }

    func request(_ demand: Subscribers.Demand) {
        enter()
        let completing = state.withLock { state -> Bool in
            state.totalDemand += demand
            return state.completing
        }
        if demand == .none {
            log.record("3.9", "the subscriber requested .none, which Combine's publishers may trap on.")
        }
        if completing {
            log.record("2.3", "receive(completion:) called request(\(demand)) on the subscription.")
        }
        leave()
    }

    func cancel() {
        enter()
        let completing = state.withLock { state -> Bool in
            state.cancelled = true
            return state.completing
        }
        if completing {
            log.record("2.3", "receive(completion:) called cancel() on the subscription.")
        }
        leave()
    }

    var description: String { "InstrumentedSubscription" }

    private func enter() {
        if callers.add(1, ordering: .acquiringAndReleasing).newValue > 1 {
            log.record("2.7", "request or cancel was called from two threads at once.")
        }
    }

    private func leave() {
        callers.subtract(1, ordering: .acquiringAndReleasing)
    }
}
