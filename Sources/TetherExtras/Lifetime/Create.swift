import TetherCore

extension AnyPublisher {
    /// Creates a publisher from a closure that sends events by hand, like RxSwift's
    /// `Observable.create`.
    ///
    /// `body` runs once per subscriber, after the subscriber has its subscription, with an
    /// ``Emitter`` to send values and one completion from any thread. It returns the cleanup to
    /// run when the stream ends: the cleanup runs exactly once, as soon as a completion is sent
    /// or the subscriber cancels (or at once, if that happened while `body` was running).
    ///
    /// ```swift
    /// let notes = AnyPublisher<Notification, Never>.create { subscriber in
    ///     let observer = center.addObserver(forName: name, object: nil, queue: nil) {
    ///         subscriber.send($0)
    ///     }
    ///     return AnyCancellable { center.removeObserver(observer) }
    /// }
    /// ```
    ///
    /// Demand: values sent while the subscriber has no outstanding demand wait in an unbounded
    /// buffer, in order, until it asks for more; a completion waits behind them. Nothing is
    /// forwarded after the first completion or after `cancel()`: later sends are ignored.
    /// Values go out on the thread that sends them, or on the thread whose request made room
    /// for buffered ones. A zero request traps, as in Combine.
    /// - Parameter body: Starts the work for one subscriber and returns its cleanup.
    /// - Returns: A publisher that runs `body` for each subscriber.
    public static func create(_ body: @escaping (Emitter) -> AnyCancellable) -> AnyPublisher<Output, Failure> {
        AnyPublisher(CreatePublisher(body: body))
    }

    /// The sending end handed to the closure of ``AnyPublisher/create(_:)``: thread-safe, and
    /// inert once the stream has ended.
    public struct Emitter: Sendable {
        internal let subscription: CreateSubscription<Output, Failure>

        /// Sends a value: delivered now when the subscriber has demand, buffered otherwise, and
        /// ignored once the stream has ended.
        /// - Parameter value: The value to send.
        public func send(_ value: Output) {
            subscription.send(value)
        }

        /// Sends the completion: the first one ends the stream and runs the cleanup; it reaches
        /// the subscriber after any buffered values.
        /// - Parameter completion: How the stream ends.
        public func send(completion: Subscribers.Completion<Failure>) {
            subscription.send(completion: completion)
        }

        /// Whether the stream has ended (completed or cancelled): later sends are ignored.
        public var isFinished: Bool {
            subscription.isFinished
        }
    }
}

extension AnyPublisher.Emitter where Output == Void {
    /// Sends `()`.
    public func send() {
        send(())
    }
}

/// The publisher behind ``AnyPublisher/create(_:)``.
internal struct CreatePublisher<Output, Failure: Error>: Publisher {
    let body: (AnyPublisher<Output, Failure>.Emitter) -> AnyCancellable

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = CreateSubscription<Output, Failure>(downstream: AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
        subscription.start(body)
    }
}

/// One subscriber's stream made by ``AnyPublisher/create(_:)``: a buffer, the demand, and a
/// drain loop that one thread at a time runs, delivering outside the lock.
internal final class CreateSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    private enum Cleanup {
        /// `body` has not returned yet.
        case awaited
        case stored(AnyCancellable)
        case done
    }

    private struct State {
        var downstream: AnySubscriber<Output, Failure>?
        var buffer: [Output] = []
        var head = 0
        var demand = Subscribers.Demand.none
        /// A completion sent by the source, waiting behind the buffer.
        var completion: Subscribers.Completion<Failure>?
        /// A completion was sent or the subscriber cancelled: sends are ignored.
        var sourceDone = false
        var draining = false
        var cleanup = Cleanup.awaited

        /// Takes the stored cleanup, once the source is done.
        mutating func takeCleanup() -> AnyCancellable? {
            guard case .stored(let cleanup) = cleanup else { return nil }
            self.cleanup = .done
            return cleanup
        }
    }

    private enum Step {
        case stop
        case value(Output, AnySubscriber<Output, Failure>)
        case complete(AnySubscriber<Output, Failure>, Subscribers.Completion<Failure>)
    }

    private let state: Locked<State>

    init(downstream: AnySubscriber<Output, Failure>) {
        state = Locked(State(downstream: downstream))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    var isFinished: Bool { state.withLock { $0.sourceDone } }

    /// Runs the user's closure, unless the subscriber cancelled inside `receive(subscription:)`.
    func start(_ body: (AnyPublisher<Output, Failure>.Emitter) -> AnyCancellable) {
        guard !state.withLock({ $0.sourceDone }) else {
            state.withLock { $0.cleanup = .done }
            return
        }
        let cleanup = body(AnyPublisher<Output, Failure>.Emitter(subscription: self))
        let runNow = state.withLock { state -> Bool in
            if state.sourceDone {
                state.cleanup = .done
                return true
            }
            state.cleanup = .stored(cleanup)
            return false
        }
        if runNow { cleanup.cancel() }
    }

    func send(_ value: Output) {
        let accepted = state.withLock { state -> Bool in
            guard !state.sourceDone, state.downstream != nil else { return false }
            state.buffer.append(value)
            return true
        }
        if accepted { drain() }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        let cleanup = state.withLock { state -> AnyCancellable?? in
            guard !state.sourceDone else { return .none }
            state.sourceDone = true
            if state.downstream != nil { state.completion = completion }
            return .some(state.takeCleanup())
        }
        guard case .some(let stored) = cleanup else { return }
        drain()
        stored?.cancel()
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: AnyPublisher.create was asked for .none")
        state.withLock { state in
            if state.downstream != nil { state.demand += demand }
        }
        drain()
    }

    func cancel() {
        let (downstream, buffer, cleanup) = state.withLock {
            state -> (AnySubscriber<Output, Failure>?, [Output], AnyCancellable?) in
            defer {
                state.downstream = nil
                state.buffer = []
                state.head = 0
                state.completion = nil
                state.sourceDone = true
            }
            return (state.downstream, state.buffer, state.takeCleanup())
        }
        // Released here, outside the lock.
        _ = (downstream, buffer)
        cleanup?.cancel()
    }

    /// Delivers what the demand allows, one value at a time outside the lock. A thread that
    /// finds another draining leaves its work to it.
    private func drain() {
        var entering = true
        var extra = Subscribers.Demand.none
        while true {
            let step = state.withLock { state -> Step in
                if entering {
                    guard !state.draining else { return .stop }
                    state.draining = true
                    entering = false
                }
                guard let downstream = state.downstream else {
                    state.draining = false
                    return .stop
                }
                state.demand += extra
                if state.head < state.buffer.count, state.demand > 0 {
                    let value = state.buffer[state.head]
                    state.head += 1
                    state.demand -= 1
                    if state.head == state.buffer.count {
                        state.buffer.removeAll(keepingCapacity: true)
                        state.head = 0
                    } else if state.head >= 64, state.head * 2 >= state.buffer.count {
                        state.buffer.removeFirst(state.head)
                        state.head = 0
                    }
                    return .value(value, downstream)
                }
                if state.head == state.buffer.count, let completion = state.completion {
                    state.downstream = nil
                    state.completion = nil
                    state.draining = false
                    return .complete(downstream, completion)
                }
                state.draining = false
                return .stop
            }
            switch step {
            case .stop:
                return
            case .value(let value, let downstream):
                extra = downstream.receive(value)
            case .complete(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            }
        }
    }

    var description: String { "Create" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }
}
