/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: it asks upstream for
/// one value per call of `next()` and hands each value to the oldest caller waiting.
///
/// A call that finds no other caller asks for its value before it thinks of suspending: a
/// publisher that answers inside `request` (a `Sequence`, `Just`, a buffer) answers it without a
/// continuation, and only a call still unanswered when `request` returns suspends, first in line
/// (``IterationState/Ask``).
///
/// Nothing is buffered: every value answers a caller that asked for it. Calls of `next()` may
/// overlap (from several tasks sharing an iterator): each waits in turn, first come first
/// served, and each asks for one more value; calls made before the publisher hands over its
/// subscription are asked for together when it arrives. A failure goes to the oldest waiting
/// caller and the others get `nil`; a failure that arrives while nobody waits is kept for the
/// next call. A value that nobody asked for traps, as in Combine; a value before the
/// subscription ends the callers waiting with `nil`.
///
/// The relay is both the subscriber and, through ``IterationToken``, what the iterator owns; the
/// token's deinit cancels, which breaks the relay↔subscription cycle when a loop is left early.
/// Cancelling (the relay itself, or the task of any waiting caller) ends every waiting call
/// with `nil`.
///
/// `@unchecked Sendable`: its state lives under its lock; the name is immutable.
@usableFromInline
internal final class IterationSubscriber<Output, Failure: Error>: Subscriber, Cancellable,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    @usableFromInline
    internal typealias Outcome = Unchecked<Result<Output?, Failure>>

    @usableFromInline
    internal typealias Waiter = UnsafeContinuation<Outcome, Never>

    /// The callers to answer, each with its outcome; performed outside the lock.
    @usableFromInline
    internal typealias Answers = RingBuffer<(Waiter, Result<Output?, Failure>)>

    @usableFromInline
    internal let state = Locked(IterationState<Output, Failure>())

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
        switch state.withLock({ $0.receive(subscription: subscription) }) {
        case .reject:
            subscription.cancel()
        case .request(let demand):
            // `next()` was called before the publisher handed over its subscription.
            subscription.request(demand)
        case .none:
            break
        }
    }

    @inlinable
    internal func receive(_ input: Output) -> Subscribers.Demand {
        switch state.withLock({ $0.receive(input) }) {
        case .deliver(let waiter):
            waiter.resume(returning: Unchecked(.success(input)))
        case .kept:
            break
        case .end(let waiting):
            Self.answer(waiting)
        case .unrequested:
            preconditionFailure("\(name) received a value it did not request")
        }
        return .none
    }

    @usableFromInline
    internal func receive(completion: Subscribers.Completion<Failure>) {
        let (waiting, released) = state.withLock { $0.receive(completion: completion) }
        _ = released
        Self.answer(waiting)
    }

    /// Ends the iteration: cancels the subscription and answers every waiting caller with `nil`.
    @usableFromInline
    internal func cancel() {
        let (subscription, waiting) = state.withLock { $0.cancel() }
        subscription?.cancel()
        Self.answer(waiting)
    }

    /// Waits for the next value: the body of both iterators' `next()`.
    @inlinable
    internal func next(isolation actor: isolated (any Actor)?) async -> Result<Output?, Failure> {
        if Task.isCancelled {
            cancel()
            return .success(nil)
        }
        switch state.withLock({ $0.ask() }) {
        case .answer(let answer):
            return answer
        case .request(let subscription):
            subscription.request(.max(1))
            if let answer = state.withLock({ $0.takeAnswer() }) {
                return answer
            }
            return await suspend(isolation: actor) { self.waitForAnswer($0) }
        case nil:
            return await suspend(isolation: actor) { self.wait($0) }
        }
    }

    /// Suspends the caller until the call `enter` makes with its continuation has it answered;
    /// cancelling the task ends the iteration.
    @inlinable
    internal func suspend(
        isolation actor: isolated (any Actor)?, _ enter: (Waiter) -> Void
    ) async -> Result<Output?, Failure> {
        await withTaskCancellationHandler(
            operation: { await withUnsafeContinuation(isolation: actor) { enter($0) } },
            onCancel: { self.cancel() },
            isolation: actor
        ).value
    }

    /// Suspends the caller that asked for its value and was not answered inside `request`, first
    /// in line; resumes it at once if the answer came meanwhile.
    @inlinable
    internal func waitForAnswer(_ waiter: Waiter) {
        if let answer = state.withLock({ $0.waitForAnswer(waiter) }) {
            waiter.resume(returning: Unchecked(answer))
        }
    }

    /// Queues the caller and asks for its value; a publisher that answers inside `request`
    /// (a `Sequence`, `Just`, a buffer) resumes it before it ever suspends.
    @inlinable
    internal func wait(_ waiter: Waiter) {
        switch state.withLock({ $0.wait(waiter) }) {
        case .answer(let answer):
            waiter.resume(returning: Unchecked(answer))
        case .request(let subscription):
            subscription.request(.max(1))
        case .none:
            break
        }
    }

    @inlinable
    internal static func answer(_ waiting: Answers) {
        var waiting = waiting
        while let (waiter, answer) = waiting.popFirst() {
            waiter.resume(returning: Unchecked(answer))
        }
    }

    @usableFromInline
    internal var description: String { name }

    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
