/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it asks upstream for
/// exactly one value per `next()` and hands that value to the caller.
///
/// Nothing is buffered beyond the one value asked for. `next()` requests before it suspends, so
/// a publisher that answers synchronously inside `request` (a `Sequence`, `Just`, a buffer)
/// hands its value back without the caller ever suspending; otherwise the caller suspends and
/// the value resumes it. A completion may arrive at any time (it needs no demand) and is kept
/// until the next call. The relay is both the subscriber and, through ``IterationToken``, what
/// the iterator owns; the token's deinit cancels, which breaks the relay↔subscription cycle when
/// a loop is left early.
@usableFromInline
internal final class IterationRelay<Output, Failure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal typealias Outcome = Unchecked<Result<Output?, Failure>>

    @usableFromInline
    internal typealias Waiter = UnsafeContinuation<Outcome, Never>

    @usableFromInline
    internal struct State {
        @usableFromInline var subscription: (any Subscription)?
        /// The caller suspended in `next()`, if any.
        @usableFromInline var waiter: Waiter?
        /// A `next()` is under way and its one value has not arrived yet (when there is no
        /// subscription yet, it is requested as soon as the subscription arrives).
        @usableFromInline var demanded = false
        /// The value that answered the demand before its caller suspended.
        @usableFromInline var ready: Output?
        /// A completion that arrived while nobody waited; handed to the next caller.
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        /// Cancelled, or the completion was handed out: every later call returns `nil`.
        @usableFromInline var isOver = false

        @inlinable
        init() {}

        /// What a caller that has not suspended (or is about to) gets now, if anything: the
        /// value it asked for, then a completion, then the end.
        @inlinable
        mutating func answer() -> Result<Output?, Failure>? {
            if let value = ready {
                ready = nil
                return .success(value)
            }
            if let completion {
                self.completion = nil
                isOver = true
                demanded = false
                return IterationRelay.outcome(of: completion)
            }
            return isOver ? .success(nil) : nil
        }
    }

    @usableFromInline
    internal let state = Locked(State())

    @usableFromInline
    internal let name: String

    @usableFromInline
    internal init(name: String) {
        self.name = name
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @usableFromInline
    internal func receive(subscription: any Subscription) {
        let (accepted, demandNow) = state.withLock { state -> (Bool, Bool) in
            guard !state.isOver, state.completion == nil, state.subscription == nil else {
                return (false, false)
            }
            state.subscription = subscription
            return (true, state.demanded)
        }
        if !accepted {
            subscription.cancel()
        } else if demandNow {
            // `next()` was called before the publisher handed over its subscription.
            subscription.request(.max(1))
        }
    }

    @inlinable
    internal func receive(_ input: Output) -> Subscribers.Demand {
        let waiter = state.withLock { state -> Waiter? in
            guard state.demanded else { return nil }
            state.demanded = false
            guard let waiter = state.waiter else {
                state.ready = input
                return nil
            }
            state.waiter = nil
            return waiter
        }
        // A value nobody asked for (the publisher broke the demand contract) is dropped: keeping
        // it would be the unbounded buffer this type exists to avoid.
        waiter?.resume(returning: Unchecked(.success(input)))
        return .none
    }

    @usableFromInline
    internal func receive(completion: Subscribers.Completion<Failure>) {
        let (waiter, released) = state.withLock { state -> (Waiter?, (any Subscription)?) in
            let released = state.subscription
            state.subscription = nil
            guard !state.isOver else { return (nil, released) }
            guard let waiter = state.waiter else {
                state.completion = completion
                return (nil, released)
            }
            state.waiter = nil
            state.demanded = false
            state.isOver = true
            return (waiter, released)
        }
        _ = released
        waiter?.resume(returning: Unchecked(Self.outcome(of: completion)))
    }

    /// Ends the iteration: cancels the subscription and answers a waiting caller with `nil`.
    @usableFromInline
    internal func cancel() {
        let (subscription, waiter) = state.withLock { state -> ((any Subscription)?, Waiter?) in
            defer {
                state.isOver = true
                state.subscription = nil
                state.waiter = nil
                state.demanded = false
                state.ready = nil
                state.completion = nil
            }
            return (state.subscription, state.waiter)
        }
        subscription?.cancel()
        waiter?.resume(returning: Unchecked(.success(nil)))
    }

    /// Waits for the next value: the body of both iterators' `next()`.
    @inlinable
    internal func next(isolation actor: isolated (any Actor)?) async -> Result<Output?, Failure> {
        if Task.isCancelled {
            cancel()
            return .success(nil)
        }
        let start = state.withLock { state -> Start in
            if let answer = state.answer() { return .answer(answer) }
            precondition(
                !state.demanded && state.waiter == nil,
                "An AsyncPublisher iterator must not be advanced concurrently")
            state.demanded = true
            return state.subscription.map(Start.request) ?? .wait
        }
        switch start {
        case .answer(let answer):
            return answer
        case .request(let subscription):
            subscription.request(.max(1))
        case .wait:
            break
        }
        // A synchronous publisher has answered inside `request`: no suspension.
        if let answer = state.withLock({ $0.answer() }) {
            return answer
        }
        return await withTaskCancellationHandler(
            operation: {
                await withUnsafeContinuation(isolation: actor) { (waiter: Waiter) in self.park(waiter) }
            },
            onCancel: { self.cancel() },
            isolation: actor
        ).value
    }

    @usableFromInline
    internal enum Start {
        case request(any Subscription)
        case wait
        case answer(Result<Output?, Failure>)
    }

    /// Suspends the caller until its value or the end arrives, unless it already has.
    @inlinable
    internal func park(_ waiter: Waiter) {
        let answer = state.withLock { state -> Result<Output?, Failure>? in
            if let answer = state.answer() { return answer }
            state.waiter = waiter
            return nil
        }
        if let answer {
            waiter.resume(returning: Unchecked(answer))
        }
    }

    @inlinable
    internal static func outcome(of completion: Subscribers.Completion<Failure>) -> Result<Output?, Failure> {
        switch completion {
        case .finished: return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }

    @usableFromInline
    internal var description: String { name }

    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}

/// What an async iterator owns: when the last copy of the iterator goes away (the loop broke,
/// returned or threw), the subscription is cancelled.
@usableFromInline
internal final class IterationToken<Output, Failure: Error>: Sendable {
    @usableFromInline
    internal let relay: IterationRelay<Output, Failure>

    @usableFromInline
    internal init(relay: IterationRelay<Output, Failure>) {
        self.relay = relay
    }

    deinit {
        relay.cancel()
    }
}
