import TetherCore

extension AsyncSequence where Self: Sendable {
    /// A publisher that publishes the elements of this asynchronous sequence, as demanded.
    ///
    /// A type that is both a `Sequence` and an `AsyncSequence` has two `publisher` properties;
    /// spell `Publishers.AsyncSequencePublisher(sequence)` to pick this one.
    @inlinable
    public var publisher: Publishers.AsyncSequencePublisher<Self> {
        Publishers.AsyncSequencePublisher(self)
    }
}

extension Publishers {
    /// A publisher that publishes the elements of an asynchronous sequence.
    ///
    /// Each subscription iterates the sequence afresh in its own `Task`, started on the first
    /// request. The task awaits the iterator's `next()` only while there is unmet demand, so the
    /// sequence is pulled exactly as fast as the subscriber asks. Values and the completion are
    /// delivered on that task, on the global concurrent executor, one at a time. The failure type
    /// is the sequence's own: `Never` for a sequence that cannot throw (`AsyncStream`), `any Error`
    /// for `AsyncThrowingStream`. Cancelling the subscription cancels the task; a value the
    /// iterator produces after that is discarded. Requesting `.none` traps.
    ///
    /// Because the sequence is pulled only with demand, its end is discovered by a pull: a
    /// subscriber that asked for exactly as many elements as there are gets them all, but the
    /// `.finished` only once it asks for one more (a sink, with unlimited demand, gets it at once).
    public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher {
        /// The kind of values published by this publisher: the sequence's elements.
        public typealias Output = Base.Element

        /// The kind of errors this publisher might publish: the sequence's failure type.
        public typealias Failure = Base.Failure

        /// The asynchronous sequence to publish.
        public let sequence: Base

        /// Creates a publisher for an asynchronous sequence.
        /// - Parameter sequence: The sequence to iterate, once per subscription.
        @inlinable
        public init(_ sequence: Base) {
            self.sequence = sequence
        }

        /// Attaches `subscriber`; iteration starts on its first request.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: Inner(downstream: subscriber, sequence: sequence))
        }
    }
}

extension Publishers.AsyncSequencePublisher {
    /// One subscription: a task that pulls one element per unit of demand.
    ///
    /// `@unchecked Sendable`: its subscriber, demand and task live in `state`, under its lock;
    /// `sequence` is only read, to start the one task that iterates it.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, TaskDriven, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline
        internal typealias Gate = UnsafeContinuation<Bool, Never>

        @usableFromInline
        internal struct State {
            /// `nil` once cancelled or completed.
            @usableFromInline var downstream: Downstream?
            @usableFromInline var demand: Subscribers.Demand = .none
            /// The task, once the first request started it.
            @usableFromInline var task: Task<Void, Never>?
            /// The task, parked until demand arrives or the subscription ends.
            @usableFromInline var gate: Gate?
            /// Whether the first request started the task.
            @usableFromInline var started = false

            @inlinable
            init(downstream: Downstream) {
                self.downstream = downstream
            }
        }

        @usableFromInline
        internal let state: Locked<State>

        @usableFromInline
        internal let sequence: Base

        @inlinable
        internal init(downstream: Downstream, sequence: Base) {
            self.sequence = sequence
            state = Locked(State(downstream: downstream))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @usableFromInline
        internal func request(_ demand: Subscribers.Demand) {
            precondition(
                demand > 0, "Demand must not be zero: Publishers.AsyncSequencePublisher was asked for .none")
            let (gate, start) = state.withLock { state -> (Gate?, Bool) in
                guard state.downstream != nil else { return (nil, false) }
                state.demand += demand
                defer {
                    state.gate = nil
                    state.started = true
                }
                return (state.gate, !state.started)
            }
            gate?.resume(returning: true)
            if start {
                // Started outside the lock; `cancel` may run before the handle is stored, so
                // `store` cancels a task that arrives too late.
                store(startTask())
            }
        }

        @usableFromInline
        internal func store(_ task: Task<Void, Never>) {
            let keep = state.withLock { state -> Bool in
                guard state.downstream != nil else { return false }
                state.task = task
                return true
            }
            if !keep { task.cancel() }
        }

        @usableFromInline
        internal func cancel() {
            let (released, task, gate) = state.withLock {
                state -> (Downstream?, Task<Void, Never>?, Gate?) in
                defer {
                    state.downstream = nil
                    state.task = nil
                    state.gate = nil
                }
                return (state.downstream, state.task, state.gate)
            }
            _ = released
            task?.cancel()
            gate?.resume(returning: false)
        }

        /// Waits until there is demand; takes one unit of it. `false` once the subscription ended.
        @usableFromInline
        internal func awaitDemand() async -> Bool {
            let ready = state.withLock { state -> Bool? in
                guard state.downstream != nil else { return false }
                guard state.demand > 0 else { return nil }
                state.demand -= 1
                return true
            }
            if let ready { return ready }
            let resumed = await withUnsafeContinuation { (gate: Gate) in
                let answer = state.withLock { state -> Bool? in
                    guard state.downstream != nil else { return false }
                    if state.demand > 0 { return true }
                    state.gate = gate
                    return nil
                }
                if let answer { gate.resume(returning: answer) }
            }
            guard resumed else { return false }
            return state.withLock { state -> Bool in
                guard state.downstream != nil, state.demand > 0 else { return false }
                state.demand -= 1
                return true
            }
        }

        @usableFromInline
        internal func drive() async {
            var iterator = sequence.makeAsyncIterator()
            while await awaitDemand() {
                let element: Base.Element?
                do throws(Base.Failure) {
                    element = try await iterator.next(isolation: nil)
                } catch {
                    complete(.failure(error))
                    return
                }
                guard let element else {
                    complete(.finished)
                    return
                }
                guard let downstream = state.withLock({ $0.downstream }) else { return }
                let more = downstream.receive(element)
                if more > 0 {
                    state.withLock { state in
                        if state.downstream != nil { state.demand += more }
                    }
                }
            }
        }

        @usableFromInline
        internal func complete(_ completion: Subscribers.Completion<Failure>) {
            let downstream = state.withLock { state -> Downstream? in
                defer {
                    state.downstream = nil
                    state.task = nil
                }
                return state.downstream
            }
            downstream?.receive(completion: completion)
        }

        @usableFromInline
        internal var description: String { "AsyncSequencePublisher" }

        @usableFromInline
        internal var customMirror: Mirror { Mirror(self, children: [:]) }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

extension Publishers.AsyncSequencePublisher: Sendable {}
