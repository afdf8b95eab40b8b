import TetherCore

extension Subscribers {
    /// A subscriber that hands each value to an `async` closure, one at a time, and asks for the
    /// next value only when the closure has returned.
    ///
    /// It requests `.max(1)` on subscription and `.max(1)` again after each call of
    /// `receiveValue` has finished, so a slow closure slows the publisher down instead of piling
    /// values up: this is backpressure, not buffering. (A hot publisher such as a subject drops
    /// what it sends while the closure runs, as for any subscriber without demand; put a
    /// `buffer(size:prefetch:whenFull:)` in front to keep those values.)
    ///
    /// Each call runs in its own unstructured `Task`, on the global concurrent executor unless
    /// the closure is isolated to an actor; calls never overlap, and the completion closure runs
    /// after the last value's call has returned. ``cancel()`` cancels the subscription and the
    /// running task, and releases both closures.
    ///
    /// `@unchecked Sendable`: its closures, status and running task live in `state`, touched only
    /// under its lock.
    public final class AsyncSink<Input: Sendable, Failure: Error>: Subscriber, Cancellable,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, TaskDriven,
        @unchecked Sendable
    {
        /// The closure that handles each value.
        public typealias ValueHandler = @Sendable (Input) async -> Void

        /// The closure that handles the completion.
        public typealias CompletionHandler = @Sendable (Subscribers.Completion<Failure>) async -> Void

        private enum Work {
            case value(Input)
            case completion(Subscribers.Completion<Failure>)
        }

        private enum Next {
            case request(any Subscription)
            case complete(Int)
            case none
        }

        private struct State {
            var status: UpstreamStatus = .awaitingSubscription
            var onValue: ValueHandler?
            var onCompletion: CompletionHandler?
            /// A closure call is running or about to: no new value is accepted.
            var busy = false
            /// Numbers the calls, so that a late handle is never stored for a newer call.
            var job = 0
            /// The task of the current call, once stored.
            var running: Task<Void, Never>?
            /// What the next task runs; taken by that task.
            var work: Work?
            /// A completion that arrived while a value was being handled.
            var deferredCompletion: Subscribers.Completion<Failure>?

            /// Hands `work` to a new call and returns its number.
            mutating func assign(_ work: Work) -> Int {
                busy = true
                job += 1
                self.work = work
                return job
            }
        }

        private let state: Locked<State>

        /// Creates a subscriber with the provided `async` closures.
        /// - Parameters:
        ///   - receiveCompletion: The closure to run on completion, after the last value's call.
        ///   - receiveValue: The closure to run on each value; the next value is requested when it
        ///     returns.
        public init(receiveCompletion: @escaping CompletionHandler, receiveValue: @escaping ValueHandler) {
            state = Locked(State(onValue: receiveValue, onCompletion: receiveCompletion))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        /// Stores the subscription and requests one value; cancels any later subscription.
        /// - Parameter subscription: The subscription from the publisher.
        public func receive(subscription: any Subscription) {
            let accepted = state.withLock { state in state.status.attach(subscription) }
            if accepted {
                subscription.request(.max(1))
            } else {
                subscription.cancel()
            }
        }

        /// Starts a task that calls ``AsyncSink/ValueHandler`` with the value.
        /// - Parameter input: The published value.
        /// - Returns: `.none`: the next value is requested when the closure has returned.
        public func receive(_ input: Input) -> Subscribers.Demand {
            let job = state.withLock { state -> Int? in
                guard state.status.isSubscribed(), !state.busy else {
                    // Terminal, or a value beyond the demand of one: dropped.
                    return nil
                }
                return state.assign(.value(input))
            }
            if let job { launch(job) }
            return .none
        }

        /// Runs the completion closure once the value being handled (if any) is done.
        /// - Parameter completion: How the publisher finished.
        public func receive(completion: Subscribers.Completion<Failure>) {
            let job = state.withLock { state -> Int? in
                guard state.status.isSubscribed() else { return nil }
                state.status = .terminal
                if state.busy {
                    state.deferredCompletion = completion
                    return nil
                }
                return state.assign(.completion(completion))
            }
            if let job { launch(job) }
        }

        /// Cancels the subscription and the running task, once, and releases the closures.
        public func cancel() {
            let (previous, running, released) = state.withLock {
                state -> (UpstreamStatus, Task<Void, Never>?, (ValueHandler?, CompletionHandler?)) in
                let previous = UpstreamStatus.end(&state.status)
                defer {
                    state = State(status: .terminal)
                }
                return (previous, state.running, (state.onValue, state.onCompletion))
            }
            _ = released
            running?.cancel()
            previous.takeSubscription()?.cancel()
        }

        private func launch(_ job: Int) {
            let task = startTask()
            let kept = state.withLock { state -> Bool in
                // The call may be over, or the sink cancelled, before the handle is stored.
                guard state.busy, state.job == job else { return false }
                state.running = task
                return true
            }
            if !kept { task.cancel() }
        }

        /// The task's body: one call of a closure, then the next request (or the completion).
        @usableFromInline
        internal func drive() async {
            let (work, onValue, onCompletion) = state.withLock {
                state -> (Work?, ValueHandler?, CompletionHandler?) in
                defer { state.work = nil }
                return (state.work, state.onValue, state.onCompletion)
            }
            switch work {
            case .value(let input)?:
                await onValue?(input)
                afterValue()
            case .completion(let completion)?:
                await onCompletion?(completion)
                release()
            case nil:
                break
            }
        }

        private func afterValue() {
            let next = state.withLock { state -> Next in
                state.running = nil
                state.busy = false
                if let completion = state.deferredCompletion {
                    state.deferredCompletion = nil
                    return .complete(state.assign(.completion(completion)))
                }
                guard case .subscribed(let subscription) = state.status else { return .none }
                return .request(subscription)
            }
            switch next {
            case .request(let subscription): subscription.request(.max(1))
            case .complete(let job): launch(job)
            case .none: break
            }
        }

        private func release() {
            let released = state.withLock { state -> State in
                defer { state = State(status: .terminal) }
                return state
            }
            _ = released
        }

        /// `"AsyncSink"`.
        public var description: String { "AsyncSink" }

        /// A mirror with no children.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The ``description``.
        public var playgroundDescription: Any { description }
    }
}

extension Publisher where Output: Sendable {
    /// Attaches a subscriber that handles each value with an `async` closure, one at a time,
    /// requesting the next value only after the closure has returned.
    ///
    /// Demand is `.max(1)` at a time, so the publisher is paced by the closure. The closures run
    /// in unstructured tasks (on the global concurrent executor unless isolated to an actor),
    /// never two at once; the completion closure runs after the last value's. Cancelling the
    /// returned object cancels the subscription and the task running a closure.
    ///
    /// ```swift
    /// events.asyncSink(receiveCompletion: { _ in }) { event in await store.save(event) }
    /// ```
    /// - Parameters:
    ///   - receiveCompletion: The closure to run on completion.
    ///   - receiveValue: The closure to run on each value.
    /// - Returns: A cancellable that tears the subscription down when cancelled or released.
    public func asyncSink(
        receiveCompletion: @escaping @Sendable (Subscribers.Completion<Failure>) async -> Void,
        receiveValue: @escaping @Sendable (Output) async -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.AsyncSink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Output: Sendable, Failure == Never {
    /// Attaches a subscriber that handles each value of a publisher that never fails with an
    /// `async` closure, one at a time, requesting the next value only after it has returned.
    /// - Parameter receiveValue: The closure to run on each value.
    /// - Returns: A cancellable that tears the subscription down when cancelled or released.
    public func asyncSink(receiveValue: @escaping @Sendable (Output) async -> Void) -> AnyCancellable {
        asyncSink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
