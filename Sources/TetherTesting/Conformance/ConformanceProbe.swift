import Synchronization
import Tether

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An identifier of the calling thread, for telling reentrancy apart from concurrency.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

/// The subscriber ``PublisherConformance`` attaches: it checks every signal as it arrives.
///
/// On every signal it checks that the subscription came first and only once (§1.9), that no
/// value exceeds the demand it expressed so far (§1.1), that nothing follows the completion
/// (§1.7), and that no two signals overlap from different threads (§1.3). It counts how deeply
/// `receive(_:)` nests on one thread (§3.3) and how many signals arrived after its own `cancel()`
/// returned, which each check judges under its own rule.
final class ConformanceProbe<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private struct State {
        var subscription: (any Subscription)?
        var subscriptions = 0
        var signalled = false
        var demanded = Subscribers.Demand.none
        var values: [String] = []
        var completion: Subscribers.Completion<Failure>?
        var cancelReturned = false
        var signalsAfterCancel = 0
        var deepestNesting = 0
    }

    private enum Entry {
        /// The first signal on the stack: it owns the probe until it returns.
        case owner
        /// A signal from inside another on the same thread (synchronous delivery).
        case nested
        /// A signal from another thread while one is under way: a §1.3 violation.
        case foreign
    }

    private let state = Guarded(State())
    private let owner = Atomic<UInt>(0)
    /// Only the owning thread touches it.
    private let valueNesting = Atomic<Int>(0)
    private let log: ViolationLog
    private let initialDemand: Subscribers.Demand
    private let keepsSubscriptionAfterCompletion: Bool
    private let accounting: PublisherConformance.Options.DemandAccounting
    private let holdPerValue: Duration
    private let onValue: ((ConformanceProbe, Int) -> Subscribers.Demand)?

    let combineIdentifier = CombineIdentifier()

    /// - Parameters:
    ///   - log: Where violations go.
    ///   - accounting: How the publisher is declared to count demand: §1.1 flags every value
    ///     beyond the demand (`.counted`), only values before the first request
    ///     (`.uncountedOnceRequested`), or none (`.uncounted`).
    ///   - demand: Requested from inside `receive(subscription:)`; `.none` requests nothing.
    ///   - keepsSubscriptionAfterCompletion: Keep the subscription after the completion, to call
    ///     it afterwards (§1.7, §3.6 checks).
    ///   - holdPerValue: How long each `receive(_:)` busy-waits, to widen the window in which an
    ///     overlapping signal would be seen.
    ///   - onValue: Called with the probe and the 1-based value count; returns the demand.
    init(
        log: ViolationLog,
        accounting: PublisherConformance.Options.DemandAccounting = .counted,
        demand: Subscribers.Demand,
        keepsSubscriptionAfterCompletion: Bool = false,
        holdPerValue: Duration = .zero,
        onValue: ((ConformanceProbe, Int) -> Subscribers.Demand)? = nil
    ) {
        self.log = log
        self.initialDemand = demand
        self.keepsSubscriptionAfterCompletion = keepsSubscriptionAfterCompletion
        self.accounting = accounting
        self.holdPerValue = holdPerValue
        self.onValue = onValue
    }

    // MARK: What checks read

    var subscription: (any Subscription)? { state.withLock { $0.subscription } }
    var subscriptionCount: Int { state.withLock { $0.subscriptions } }
    var valueCount: Int { state.withLock { $0.values.count } }
    var valueDescriptions: [String] { state.withLock { $0.values } }
    var completion: Subscribers.Completion<Failure>? { state.withLock { $0.completion } }
    var signalsAfterCancel: Int { state.withLock { $0.signalsAfterCancel } }
    var deepestNesting: Int { state.withLock { $0.deepestNesting } }

    var isFinished: Bool {
        if case .finished = completion { return true }
        return false
    }

    var isFailed: Bool {
        if case .failure = completion { return true }
        return false
    }

    /// `"3 values, finished"`, for messages.
    var summary: String {
        let count = valueCount
        let values = count == 1 ? "1 value" : "\(count) values"
        switch completion {
        case nil: return "\(values), no completion"
        case .finished: return "\(values), finished"
        case .failure(let error): return "\(values), failed with \(error)"
        }
    }

    // MARK: What checks do

    /// Counts `demand` as expressed, then requests it.
    func request(_ demand: Subscribers.Demand) {
        let subscription = state.withLock { state -> (any Subscription)? in
            state.demanded += demand
            return state.subscription
        }
        subscription?.request(demand)
    }

    /// Cancels the subscription and lets go of it; signals from now on are counted.
    func cancel() {
        let subscription = state.withLock { state -> (any Subscription)? in
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
        state.withLock { $0.cancelReturned = true }
    }

    /// Lets go of the subscription without cancelling it.
    func releaseSubscription() {
        let released = state.withLock { state -> (any Subscription)? in
            defer { state.subscription = nil }
            return state.subscription
        }
        _ = released
    }

    // MARK: Subscriber

    func receive(subscription: any Subscription) {
        let entry = enter()
        let extra = state.withLock { state -> (any Subscription)? in
            state.subscriptions += 1
            if state.subscriptions > 1 {
                log.record("1.9", "receive(subscription:) was called \(state.subscriptions) times for one subscribe.")
                return subscription
            }
            if state.signalled {
                log.record("1.9", "receive(subscription:) came after a value or completion.")
            }
            state.subscription = subscription
            return nil
        }
        leave(entry)
        if let extra {
            extra.cancel()
        } else if initialDemand > 0 {
            request(initialDemand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let entry = enter()
        if entry != .foreign {
            let depth = valueNesting.add(1, ordering: .relaxed).newValue
            state.withLock { $0.deepestNesting = max($0.deepestNesting, depth) }
        }
        let count = state.withLock { state -> Int in
            state.signalled = true
            if state.subscriptions == 0 {
                log.record("1.9", "a value arrived before receive(subscription:).")
            }
            if let completion = state.completion {
                log.record("1.7", "a value arrived after the completion (\(completion)).")
            }
            state.values.append(String(describing: input))
            let bound: Subscribers.Demand =
                switch accounting {
                case .counted: .max(state.values.count)
                case .uncountedOnceRequested: state.demanded == .none ? .max(state.values.count) : .none
                case .uncounted: .none
                }
            if bound > state.demanded {
                log.record(
                    "1.1",
                    "value number \(state.values.count) arrived, but the subscriber had demanded \(state.demanded) in all."
                )
            }
            if state.cancelReturned { state.signalsAfterCancel += 1 }
            return state.values.count
        }
        if holdPerValue > .zero {
            let clock = ContinuousClock()
            let until = clock.now.advanced(by: holdPerValue)
            while clock.now < until {}
        }
        let more = onValue?(self, count) ?? .none
        state.withLock { $0.demanded += more }
        if entry != .foreign {
            valueNesting.subtract(1, ordering: .relaxed)
        }
        leave(entry)
        return more
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let entry = enter()
        let released = state.withLock { state -> (any Subscription)? in
            state.signalled = true
            if state.subscriptions == 0 {
                log.record("1.9", "the completion arrived before receive(subscription:).")
            }
            if let first = state.completion {
                log.record("1.7", "a second completion (\(completion)) arrived after \(first).")
            } else {
                state.completion = completion
            }
            if state.cancelReturned { state.signalsAfterCancel += 1 }
            guard !keepsSubscriptionAfterCompletion else { return nil }
            defer { state.subscription = nil }
            return state.subscription
        }
        _ = released
        leave(entry)
    }

    // MARK: Overlap detection

    private func enter() -> Entry {
        let me = currentThreadID()
        let (exchanged, original) = owner.compareExchange(
            expected: 0, desired: me, ordering: .acquiringAndReleasing)
        if exchanged { return .owner }
        if original == me { return .nested }
        log.record("1.3", "a signal arrived on one thread while another thread was still inside the subscriber.")
        return .foreign
    }

    private func leave(_ entry: Entry) {
        if entry == .owner {
            owner.store(0, ordering: .releasing)
        }
    }
}
