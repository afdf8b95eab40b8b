/// The subscriber behind `firstValue`, `collectValues()` and `Future.value`: it subscribes,
/// gathers values, and resumes one suspended caller with the outcome.
///
/// With a limit of one it requests `.max(1)` and cancels the subscription after the first value;
/// without a limit it requests `.unlimited` and keeps everything until the completion. When the
/// caller's task is cancelled (and the caller allows it), the subscription is cancelled and the
/// caller gets `CancellationError`.
///
/// `@unchecked Sendable`: its state lives under its lock; `firstOnly` is immutable.
@usableFromInline
package final class ValueAwaiter<Input, Failure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    package typealias Outcome = Unchecked<Result<[Input], any Error>>

    @usableFromInline
    package typealias Waiter = UnsafeContinuation<Outcome, Never>

    @usableFromInline
    package struct State {
        @usableFromInline package var subscription: (any Subscription)?
        @usableFromInline package var waiter: Waiter?
        @usableFromInline package var values: [Input] = []
        /// Set once the caller has been (or is about to be) answered.
        @usableFromInline package var isOver = false

        @inlinable
        package init(waiter: Waiter) {
            self.waiter = waiter
        }
    }

    @usableFromInline
    package let state: Locked<State>

    /// `true` to stop after the first value.
    @usableFromInline
    package let firstOnly: Bool

    @usableFromInline
    package init(firstOnly: Bool, waiter: Waiter) {
        self.firstOnly = firstOnly
        state = Locked(State(waiter: waiter))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @usableFromInline
    package func receive(subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard !state.isOver, state.subscription == nil else { return false }
            state.subscription = subscription
            return true
        }
        if accepted {
            subscription.request(firstOnly ? .max(1) : .unlimited)
        } else {
            subscription.cancel()
        }
    }

    @usableFromInline
    package func receive(_ input: Input) -> Subscribers.Demand {
        guard firstOnly else {
            state.withLock { state in
                if !state.isOver { state.values.append(input) }
            }
            return .none
        }
        let (waiter, subscription) = state.withLock { state -> (Waiter?, (any Subscription)?) in
            guard !state.isOver else { return (nil, nil) }
            state.isOver = true
            defer {
                state.waiter = nil
                state.subscription = nil
            }
            return (state.waiter, state.subscription)
        }
        subscription?.cancel()
        waiter?.resume(returning: Unchecked(.success([input])))
        return .none
    }

    @usableFromInline
    package func receive(completion: Subscribers.Completion<Failure>) {
        let (waiter, values, released) = state.withLock {
            state -> (Waiter?, [Input], (any Subscription)?) in
            let released = state.subscription
            state.subscription = nil
            guard !state.isOver else { return (nil, [], released) }
            state.isOver = true
            defer {
                state.waiter = nil
                state.values = []
            }
            return (state.waiter, state.values, released)
        }
        _ = released
        switch completion {
        case .finished: waiter?.resume(returning: Unchecked(.success(values)))
        case .failure(let error): waiter?.resume(returning: Unchecked(.failure(error)))
        }
    }

    /// The caller's task was cancelled: cancel upstream and answer with `CancellationError`.
    @usableFromInline
    package func cancel() {
        let (waiter, subscription) = state.withLock { state -> (Waiter?, (any Subscription)?) in
            guard !state.isOver else { return (nil, nil) }
            state.isOver = true
            defer {
                state.waiter = nil
                state.subscription = nil
                state.values = []
            }
            return (state.waiter, state.subscription)
        }
        subscription?.cancel()
        waiter?.resume(returning: Unchecked(.failure(CancellationError())))
    }

    /// Subscribes to `publisher` and waits for its outcome: the first value (or none), or all of
    /// them.
    /// - Parameters:
    ///   - publisher: The publisher to await.
    ///   - firstOnly: Whether to stop after the first value.
    ///   - cancellable: Whether cancelling the caller's task cancels the subscription.
    /// - Returns: The values received before the completion (at most one with `firstOnly`), or
    ///   the failure, or `CancellationError`.
    @inlinable
    package static func outcome<P: Publisher>(
        of publisher: P, firstOnly: Bool, cancellable: Bool,
        isolation actor: isolated (any Actor)? = #isolation
    ) async -> Result<[Input], any Error> where P.Output == Input, P.Failure == Failure {
        let holder = AwaiterHolder<Input, Failure>()
        let wait = {
            await withUnsafeContinuation(isolation: actor) { (waiter: Waiter) in
                let awaiter = ValueAwaiter(firstOnly: firstOnly, waiter: waiter)
                holder.set(awaiter)
                publisher.subscribe(awaiter)
            }.value
        }
        guard cancellable else { return await wait() }
        return await withTaskCancellationHandler(
            operation: { await wait() }, onCancel: { holder.cancel() }, isolation: actor)
    }

    @usableFromInline
    package var description: String { firstOnly ? "FirstValue" : "CollectValues" }

    @usableFromInline
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    package var playgroundDescription: Any { description }
}

/// Lets the task's cancellation handler reach an awaiter made later, inside the continuation;
/// a cancellation that comes first is remembered and applied when the awaiter arrives.
@usableFromInline
package final class AwaiterHolder<Input, Failure: Error>: Sendable {
    @usableFromInline
    package struct Slot: Sendable {
        @usableFromInline package var awaiter: ValueAwaiter<Input, Failure>?
        @usableFromInline package var cancelled = false

        @inlinable
        package init() {}
    }

    @usableFromInline
    package let slot = Locked(Slot())

    @usableFromInline
    package init() {}

    @usableFromInline
    package func set(_ awaiter: ValueAwaiter<Input, Failure>) {
        let cancelled = slot.withLock { slot -> Bool in
            slot.awaiter = awaiter
            return slot.cancelled
        }
        if cancelled { awaiter.cancel() }
    }

    @usableFromInline
    package func cancel() {
        let awaiter = slot.withLock { slot -> ValueAwaiter<Input, Failure>? in
            slot.cancelled = true
            defer { slot.awaiter = nil }
            return slot.awaiter
        }
        awaiter?.cancel()
    }
}
