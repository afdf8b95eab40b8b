import Foundation
import Synchronization
import Tether
import TetherCore
import TetherTesting

/// Runs two closures against each other, released together by a ``SpinBarrier``, round after
/// round: the calling thread runs `first`, one long-lived worker thread runs `second`.
enum Race {
    static let defaultRounds = 2_500

    /// - Parameters:
    ///   - rounds: How many rounds to run.
    ///   - setup: Makes the state of one round, before the race.
    ///   - first: Runs on the calling thread.
    ///   - second: Runs on the worker thread at the same moment.
    ///   - check: Asserts the outcome of the round, after both have returned.
    static func run<State>(
        rounds: Int = defaultRounds,
        setup: () -> State,
        _ first: (State) -> Void,
        _ second: @escaping (State) -> Void,
        check: (State) -> Void
    ) {
        let worker = Worker()
        defer { worker.stop() }
        for _ in 0..<rounds {
            let state = setup()
            worker.job = { second(state) }
            worker.start.arriveAndWait()
            first(state)
            worker.end.arriveAndWait()
            worker.job = nil
            check(state)
        }
    }

    /// The worker thread; its fields are handed over through the barriers, whose atomics
    /// order every access.
    private final class Worker: @unchecked Sendable {
        let start = SpinBarrier(parties: 2)
        let end = SpinBarrier(parties: 2)
        var job: (() -> Void)?
        private var stopping = false
        private let finished = DispatchSemaphore(value: 0)

        init() {
            let thread = Thread { [self] in
                while true {
                    start.arriveAndWait()
                    if stopping { break }
                    job?()
                    end.arriveAndWait()
                }
                finished.signal()
            }
            thread.start()
        }

        func stop() {
            stopping = true
            start.arriveAndWait()
            finished.wait()
        }
    }
}

/// A subscriber for races: records what it receives, and counts signals that overlapped
/// another signal or started after its `cancel()` returned.
final class RaceSubscriber<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    enum Event {
        case subscription
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private struct State {
        var events: [Event] = []
        var subscription: (any Subscription)?
    }

    private let state = Locked(State())
    private let inside = Atomic<Bool>(false)
    private let cancelReturned = Atomic<Bool>(false)
    private let overlapCount = Atomic<Int>(0)
    private let lateCount = Atomic<Int>(0)
    private let initialDemand: Subscribers.Demand

    let combineIdentifier = CombineIdentifier()

    init(demand: Subscribers.Demand) {
        initialDemand = demand
    }

    var events: [Event] { state.withLock { $0.events } }
    var overlaps: Int { overlapCount.load(ordering: .sequentiallyConsistent) }
    var signalsAfterCancel: Int { lateCount.load(ordering: .sequentiallyConsistent) }

    var values: [Input] {
        events.compactMap { if case .value(let value) = $0 { return value } else { return nil } }
    }

    var completions: Int {
        events.filter { if case .completion = $0 { return true } else { return false } }.count
    }

    var subscription: (any Subscription)? { state.withLock { $0.subscription } }

    func request(_ demand: Subscribers.Demand) {
        let subscription = state.withLock { $0.subscription }
        subscription?.request(demand)
    }

    func cancel() {
        let subscription = state.withLock { state -> (any Subscription)? in
            defer { state.subscription = nil }
            return state.subscription
        }
        subscription?.cancel()
        cancelReturned.store(true, ordering: .sequentiallyConsistent)
    }

    func receive(subscription: any Subscription) {
        signal(.subscription) { $0.subscription = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        signal(.value(input)) { _ in }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let released = state.withLock { state -> (any Subscription)? in
            defer { state.subscription = nil }
            return state.subscription
        }
        _ = released
        signal(.completion(completion)) { _ in }
    }

    private func signal(_ event: Event, _ update: (inout State) -> Void) {
        if cancelReturned.load(ordering: .sequentiallyConsistent) {
            lateCount.add(1, ordering: .sequentiallyConsistent)
        }
        if inside.exchange(true, ordering: .acquiringAndReleasing) {
            overlapCount.add(1, ordering: .sequentiallyConsistent)
        }
        state.withLock {
            $0.events.append(event)
            update(&$0)
        }
        // Widens the window in which an overlapping signal would be seen.
        for _ in 0..<50 { _ = inside.load(ordering: .relaxed) }
        inside.store(false, ordering: .releasing)
    }
}

struct Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
