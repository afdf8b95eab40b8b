import Foundation
import Tether
import TetherTesting

/// A cold publisher of `0..<elements` with one deliberate contract violation, to prove that
/// each conformance check can fail.
struct FaultyPublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never

    enum Fault {
        case none
        case ignoresDemand
        case noSubscription
        case twoSubscriptions
        case signalsAfterCompletion
        case neverFinishes
        case recurses
        case unsynchronized
        case keepsSubscriberAfterCancel
        case keepsSubscriberAfterCompletion
        case deliversAfterCancel
        case replacesDemand
        case wrapsDemand
        case deliversOnZeroDemand
    }

    let elements: Int
    let fault: Fault

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        if fault == .noSubscription { return }
        let subscription = FaultySubscription(downstream: subscriber, elements: elements, fault: fault)
        subscriber.receive(subscription: subscription)
        if fault == .twoSubscriptions {
            subscriber.receive(
                subscription: FaultySubscription(downstream: subscriber, elements: elements, fault: fault))
        }
    }
}

final class FaultySubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable
where Downstream.Input == Int, Downstream.Failure == Never {
    private let lock = NSLock()
    private var downstream: Downstream?
    /// Kept for the faults that hold on to the subscriber.
    private var retained: Downstream?
    private let elements: Int
    private let fault: FaultyPublisher.Fault
    private var next = 0
    private var demand = 0
    private var draining = false
    private var finished = false

    init(downstream: Downstream, elements: Int, fault: FaultyPublisher.Fault) {
        self.downstream = downstream
        self.elements = elements
        self.fault = fault
        if fault == .keepsSubscriberAfterCancel || fault == .keepsSubscriberAfterCompletion {
            retained = downstream
        }
    }

    func request(_ requested: Subscribers.Demand) {
        if requested == .none {
            if fault == .deliversOnZeroDemand { deliverUnsynchronized(1) }
            return
        }
        let amount = requested.max ?? Int.max
        switch fault {
        case .ignoresDemand:
            deliverUnsynchronized(elements)
            return
        case .unsynchronized:
            deliverUnsynchronized(amount)
            return
        default:
            lock.withLock { add(amount) }
        }
        drain()
    }

    func cancel() {
        lock.withLock {
            if fault != .deliversAfterCancel { downstream = nil }
            if fault != .keepsSubscriberAfterCancel { retained = nil }
        }
    }

    /// Adds demand as the fault says; called under the lock.
    private func add(_ amount: Int) {
        switch fault {
        case .replacesDemand: demand = amount
        case .wrapsDemand: demand = demand &+ amount
        default: demand = demand > Int.max - amount ? Int.max : demand + amount
        }
    }

    /// Delivers while there is demand; requests from inside `receive` only add to it, unless
    /// the fault is `.recurses`.
    private func drain() {
        if fault != .recurses {
            let owner = lock.withLock { () -> Bool in
                defer { draining = true }
                return !draining
            }
            guard owner else { return }
        }
        while true {
            let step = lock.withLock { () -> (Downstream, Int)? in
                guard let downstream, demand > 0, next < elements else { return nil }
                demand -= 1
                next += 1
                return (downstream, next - 1)
            }
            guard let (downstream, value) = step else { break }
            let more = downstream.receive(value)
            if more != .none {
                lock.withLock { add(more.max ?? Int.max) }
            }
        }
        lock.withLock { draining = false }
        finishIfDone()
    }

    /// Delivers `count` values at once on the calling thread, ignoring demand and locks.
    private func deliverUnsynchronized(_ count: Int) {
        for _ in 0..<count {
            let step = lock.withLock { () -> (Downstream, Int)? in
                guard let downstream, next < elements else { return nil }
                next += 1
                return (downstream, next - 1)
            }
            guard let (downstream, value) = step else { break }
            _ = downstream.receive(value)
        }
        finishIfDone()
    }

    private func finishIfDone() {
        let target = lock.withLock { () -> Downstream? in
            guard next == elements, !finished, fault != .neverFinishes else { return nil }
            finished = true
            defer {
                if fault != .signalsAfterCompletion && fault != .deliversAfterCancel { downstream = nil }
                if fault != .keepsSubscriberAfterCompletion { retained = nil }
            }
            return downstream
        }
        guard let target else { return }
        target.receive(completion: .finished)
        if fault == .signalsAfterCompletion {
            _ = target.receive(elements)
            target.receive(completion: .finished)
        }
    }
}
