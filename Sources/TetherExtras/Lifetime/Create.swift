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

/// One subscriber's stream made by ``AnyPublisher/create(_:)``: what each send, request and
/// cancel does is decided by a ``CreateState`` under the lock and done once it is released; the
/// drain loop delivers outside the lock, one value at a time.
internal final class CreateSubscription<Output, Failure: Error>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    private let state: Locked<CreateState<Output, Failure>>

    init(downstream: AnySubscriber<Output, Failure>) {
        state = Locked(CreateState(downstream: downstream))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Runs the user's closure, unless the subscriber cancelled inside `receive(subscription:)`.
    func start(_ body: (AnyPublisher<Output, Failure>.Emitter) -> AnyCancellable) {
        guard state.withLock({ $0.starting() }) else { return }
        let cleanup = body(AnyPublisher<Output, Failure>.Emitter(subscription: self))
        state.withLock { $0.bodyReturned(cleanup) }?.cancel()
    }

    func send(_ value: Output) {
        if state.withLock({ $0.send(value) }) { drain() }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        guard case .drainThenCleanUp(let stored) = state.withLock({ $0.send(completion: completion) }) else { return }
        drain()
        stored?.cancel()
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: AnyPublisher.create was asked for .none")
        state.withLock { $0.request(demand) }
        drain()
    }

    func cancel() {
        let (downstream, buffer, cleanup) = state.withLock { $0.cancel() }
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
            let step = state.withLock { entering ? $0.startDrain() : $0.delivered(extra) }
            entering = false
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
