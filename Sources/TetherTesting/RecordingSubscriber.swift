import Synchronization
import Tether
import TetherCore

/// A subscriber that records everything it receives, for tests that assert whole histories.
///
/// ```swift
/// let recorder = RecordingSubscriber<Int, Never>(demand: .max(2))
/// [1, 2, 3].publisher.subscribe(recorder)
/// XCTAssertEqual(recorder.events, [.subscription, .value(1), .value(2)])
/// ```
///
/// It asks for `demand` when it receives its subscription, and for `demandPerValue(value)` after
/// each value. It lets go of its subscription on completion (as every well-behaved subscriber
/// does), and it is safe to use from several threads.
public final class RecordingSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
    CustomStringConvertible, @unchecked Sendable
{
    /// One signal the subscriber received.
    public enum Event {
        /// `receive(subscription:)` was called.
        case subscription
        /// `receive(_:)` was called with this value.
        case value(Input)
        /// `receive(completion:)` was called with this completion.
        case completion(Subscribers.Completion<Failure>)
    }

    private struct State {
        var events: [Event] = []
        var subscription: (any Subscription)?
        var subscriptionDescriptions: [String] = []
    }

    private let state = Locked(State())
    private let initialDemand: Subscribers.Demand
    private let demandPerValue: (Input) -> Subscribers.Demand

    /// Creates a recorder.
    /// - Parameters:
    ///   - demand: What to request on receiving the subscription; `.none` requests nothing.
    ///   - demandPerValue: What to return from `receive(_:)` for each value.
    public init(
        demand: Subscribers.Demand = .unlimited,
        demandPerValue: @escaping (Input) -> Subscribers.Demand = { _ in .none }
    ) {
        initialDemand = demand
        self.demandPerValue = demandPerValue
    }

    /// Everything received so far, in order.
    public var events: [Event] { state.withLock { $0.events } }

    /// The values received so far, in order.
    public var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { return value } else { return nil } }
    }

    /// The completion received, if any.
    public var completion: Subscribers.Completion<Failure>? {
        for case .completion(let completion) in events { return completion }
        return nil
    }

    /// The `description` of each subscription received, in order.
    public var subscriptionDescriptions: [String] {
        state.withLock { $0.subscriptionDescriptions }
    }

    /// The subscription currently held; `nil` before the first one and after the completion.
    public var subscription: (any Subscription)? { state.withLock { $0.subscription } }

    /// A unique identifier.
    public let combineIdentifier = CombineIdentifier()

    /// `"RecordingSubscriber"`.
    public var description: String { "RecordingSubscriber" }

    /// Records the subscription, keeps it, and requests the initial demand (unless `.none`).
    /// - Parameter subscription: The subscription received.
    public func receive(subscription: any Subscription) {
        state.withLock {
            $0.events.append(.subscription)
            $0.subscriptionDescriptions.append(String(describing: subscription))
            if $0.subscription == nil { $0.subscription = subscription }
        }
        if initialDemand > 0 {
            subscription.request(initialDemand)
        }
    }

    /// Records the value and returns `demandPerValue(input)`.
    /// - Parameter input: The value received.
    public func receive(_ input: Input) -> Subscribers.Demand {
        state.withLock { $0.events.append(.value(input)) }
        return demandPerValue(input)
    }

    /// Records the completion and lets go of the subscription.
    /// - Parameter completion: The completion received.
    public func receive(completion: Subscribers.Completion<Failure>) {
        let released = state.withLock { state -> (any Subscription)? in
            state.events.append(.completion(completion))
            defer { state.subscription = nil }
            return state.subscription
        }
        _ = released
    }

    /// Requests more values through the held subscription.
    /// - Parameter demand: How many more values to ask for.
    public func request(_ demand: Subscribers.Demand) {
        subscription?.request(demand)
    }

    /// Cancels the held subscription and lets go of it.
    public func cancel() {
        let taken = state.withLock { state -> (any Subscription)? in
            defer { state.subscription = nil }
            return state.subscription
        }
        taken?.cancel()
    }
}

extension RecordingSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}

extension RecordingSubscriber.Event: CustomStringConvertible {
    /// `.subscription`, `.value(1)` or `.completion(.finished)`.
    public var description: String {
        switch self {
        case .subscription: return ".subscription"
        case .value(let value): return ".value(\(value))"
        case .completion(.finished): return ".completion(.finished)"
        case .completion(.failure(let error)): return ".completion(.failure(\(error)))"
        }
    }
}

/// Lets a non-Sendable value live in a `Mutex`; the mutex is what makes access safe.
struct Unsafe<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
