/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it asks upstream for
/// exactly one value per `next()` and hands that value to the suspended caller.
///
/// Nothing is buffered: a value can only arrive while a caller waits, because demand is requested
/// only after the caller's continuation is stored. A completion may arrive at any time (it needs
/// no demand) and is kept until the next call. The relay is both the subscriber and, through
/// ``IterationToken``, what the iterator owns; the token's deinit cancels, which breaks the
/// relay↔subscription cycle when a loop is left early.
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
        /// A completion that arrived while nobody waited; handed to the next caller.
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        /// Cancelled, or the completion was handed out: every later call returns `nil`.
        @usableFromInline var isOver = false

        @inlinable
        init() {}
    }

    @usableFromInline
    internal let state = Locked(State())

    @usableFromInline
    internal let name: String

    @usableFromInline
    internal init(name: String) {
        self.name = name
        SubscriptionLedger.enter(self)
    }

    deinit {
        SubscriptionLedger.leave(self)
    }

    @usableFromInline
    internal func receive(subscription: any Subscription) {
        let (accepted, demandNow) = state.withLock { state -> (Bool, Bool) in
            guard !state.isOver, state.completion == nil, state.subscription == nil else {
                return (false, false)
            }
            state.subscription = subscription
            return (true, state.waiter != nil)
        }
        if !accepted {
            subscription.cancel()
        } else if demandNow {
            // `next()` was called before the publisher handed over its subscription.
            subscription.request(.max(1))
        }
    }

    @usableFromInline
    internal func receive(_ input: Output) -> Subscribers.Demand {
        let waiter = state.withLock { state -> Waiter? in
            defer { state.waiter = nil }
            return state.waiter
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
            state.isOver = true
            return (waiter, released)
        }
        _ = released
        waiter?.resume(returning: Unchecked(Self.outcome(of: completion)))
    }

    /// Registers the caller of `next()` and requests one value, or answers at once when the
    /// stream is already over.
    @usableFromInline
    internal func await(_ waiter: Waiter) {
        let step = state.withLock { state -> Step in
            if let completion = state.completion {
                state.completion = nil
                state.isOver = true
                return .answer(Self.outcome(of: completion))
            }
            if state.isOver { return .answer(.success(nil)) }
            precondition(state.waiter == nil, "An AsyncPublisher iterator must not be advanced concurrently")
            state.waiter = waiter
            guard let subscription = state.subscription else { return .wait }
            return .request(subscription)
        }
        switch step {
        case .request(let subscription):
            subscription.request(.max(1))
        case .wait:
            break
        case .answer(let outcome):
            waiter.resume(returning: Unchecked(outcome))
        }
    }

    @usableFromInline
    internal enum Step {
        case request(any Subscription)
        case wait
        case answer(Result<Output?, Failure>)
    }

    /// Ends the iteration: cancels the subscription and answers a waiting caller with `nil`.
    @usableFromInline
    internal func cancel() {
        let (subscription, waiter) = state.withLock { state -> ((any Subscription)?, Waiter?) in
            defer {
                state.isOver = true
                state.subscription = nil
                state.waiter = nil
                state.completion = nil
            }
            return (state.subscription, state.waiter)
        }
        subscription?.cancel()
        waiter?.resume(returning: Unchecked(.success(nil)))
    }

    /// Waits for the next value: the body of both iterators' `next()`.
    @usableFromInline
    internal func next(isolation actor: isolated (any Actor)?) async -> Result<Output?, Failure> {
        await withTaskCancellationHandler(
            operation: {
                await withUnsafeContinuation(isolation: actor) { (waiter: Waiter) in self.await(waiter) }
            },
            onCancel: { self.cancel() },
            isolation: actor
        ).value
    }

    @usableFromInline
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
