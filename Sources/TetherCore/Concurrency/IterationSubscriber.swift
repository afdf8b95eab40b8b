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

/// The state machine of an ``IterationSubscriber``; every method runs under its lock and calls
/// nothing.
@usableFromInline
internal struct IterationState<Output, Failure: Error> {
    @usableFromInline
    internal typealias Waiter = IterationSubscriber<Output, Failure>.Waiter

    @usableFromInline
    internal typealias Answers = IterationSubscriber<Output, Failure>.Answers

    @usableFromInline
    internal enum SubscriptionAction {
        case reject
        case request(Subscribers.Demand)
    }

    @usableFromInline
    internal enum InputAction {
        case deliver(Waiter)
        /// The asking caller's answer, kept for it to take.
        case kept
        /// No subscription (yet, or any more): the waiting callers end with `nil`.
        case end(Answers)
        case unrequested
    }

    @usableFromInline
    internal enum AskAction {
        case answer(Result<Output?, Failure>)
        case request(any Subscription)
    }

    /// The caller of `next()` that asked for its value without waiting in line (the only caller
    /// when it asked, so the oldest): asking inside `request`, answered, or suspended after all.
    @usableFromInline
    internal enum Ask {
        case none
        case asking
        case answered(Result<Output?, Failure>)
        case waiting(Waiter)
    }

    @usableFromInline
    internal enum WaitAction {
        case answer(Result<Output?, Failure>)
        case request(any Subscription)
    }

    /// Where the upstream stands; once terminal (completed or cancelled), every later call gets
    /// `nil` (after a kept failure).
    @usableFromInline var status = UpstreamStatus.awaitingSubscription
    /// The caller that asked for its value without waiting in line: older than every waiter.
    @usableFromInline var asker = Ask.none
    /// Callers suspended in `next()`, oldest first; each has asked for one value.
    @usableFromInline var waiters = RingBuffer<Waiter>()
    /// Values asked for before the subscription arrived.
    @usableFromInline var pendingDemand = Subscribers.Demand.none
    /// A failure that arrived while nobody waited: thrown by the next call.
    @usableFromInline var failure: Failure?

    @inlinable
    init() {}

    @inlinable
    mutating func receive(subscription: any Subscription) -> SubscriptionAction? {
        guard case .awaitingSubscription = status else { return .reject }
        status = .subscribed(subscription)
        defer { pendingDemand = .none }
        return pendingDemand > 0 ? .request(pendingDemand) : nil
    }

    @inlinable
    mutating func receive(_ input: Output) -> InputAction {
        guard status.isSubscribed() else { return .end(takeWaiters(answering: .success(nil))) }
        switch asker {
        case .asking:
            asker = .answered(.success(input))
            return .kept
        case .waiting(let waiter):
            asker = .none
            return .deliver(waiter)
        case .none, .answered:
            break
        }
        guard let waiter = waiters.popFirst() else { return .unrequested }
        return .deliver(waiter)
    }

    /// The callers to answer, and the subscription to release outside the lock.
    @inlinable
    mutating func receive(
        completion: Subscribers.Completion<Failure>
    ) -> (Answers, (any Subscription)?) {
        let released: (any Subscription)?
        switch status {
        case .terminal: return (Answers(), nil)
        case .subscribed(let subscription): released = subscription
        case .awaitingSubscription: released = nil
        }
        status = .terminal
        pendingDemand = .none
        // The oldest caller gets the outcome, the others the end; the failure is not kept.
        var answers = Answers()
        guard answerOldest(IterationState.outcome(of: completion), into: &answers) else {
            if case .failure(let error) = completion { failure = error }
            return (Answers(), released)
        }
        takeWaiters(answering: .success(nil), into: &answers)
        return (answers, released)
    }

    @inlinable
    mutating func cancel() -> ((any Subscription)?, Answers) {
        let subscription: (any Subscription)?
        if case .subscribed(let held) = status { subscription = held } else { subscription = nil }
        status = .terminal
        pendingDemand = .none
        failure = nil
        return (subscription, takeWaiters(answering: .success(nil)))
    }

    /// What a call of `next()` gets without waiting: a kept failure, or the end.
    @inlinable
    mutating func answerAtOnce() -> Result<Output?, Failure>? {
        guard case .terminal = status else { return nil }
        if let failure {
            self.failure = nil
            return .failure(failure)
        }
        return .success(nil)
    }

    /// A call of `next()` that may not need to suspend: its answer when it has one at once, or,
    /// when it is the only caller, the subscription to ask for its value (it is then the asker);
    /// `nil` when it must wait in line (``wait(_:)``).
    @inlinable
    mutating func ask() -> AskAction? {
        if let answer = answerAtOnce() { return .answer(answer) }
        guard case .none = asker, waiters.isEmpty, case .subscribed(let subscription) = status else { return nil }
        asker = .asking
        return .request(subscription)
    }

    /// The asker's answer, if `request` (or the end of the stream) gave it one.
    @inlinable
    mutating func takeAnswer() -> Result<Output?, Failure>? {
        guard case .answered(let answer) = asker else { return nil }
        asker = .none
        return answer
    }

    /// The asker suspends: its answer if it came meanwhile, else it waits, ahead of every waiter.
    @inlinable
    mutating func waitForAnswer(_ waiter: Waiter) -> Result<Output?, Failure>? {
        if let answer = takeAnswer() { return answer }
        asker = .waiting(waiter)
        return nil
    }

    /// Queues a caller: the subscription to ask for its value, or its answer when it need not
    /// wait, or `nil` when its demand waits for the subscription.
    @inlinable
    mutating func wait(_ waiter: Waiter) -> WaitAction? {
        if let answer = answerAtOnce() { return .answer(answer) }
        waiters.append(waiter)
        guard case .subscribed(let subscription) = status else {
            pendingDemand += 1
            return nil
        }
        return .request(subscription)
    }

    @inlinable
    mutating func takeWaiters(answering answer: Result<Output?, Failure>) -> Answers {
        var answers = Answers()
        takeWaiters(answering: answer, into: &answers)
        return answers
    }

    @inlinable
    mutating func takeWaiters(answering answer: Result<Output?, Failure>, into answers: inout Answers) {
        while answerOldest(answer, into: &answers) {}
    }

    /// Answers the oldest caller still unanswered (the asker, then the waiters in line) with
    /// `answer`: an asker still inside `request` finds it when it returns.
    /// - Returns: `false` when no caller is left unanswered.
    @inlinable
    mutating func answerOldest(_ answer: Result<Output?, Failure>, into answers: inout Answers) -> Bool {
        switch asker {
        case .asking:
            asker = .answered(answer)
            return true
        case .waiting(let waiter):
            asker = .none
            answers.append((waiter, answer))
            return true
        case .none, .answered:
            break
        }
        guard let waiter = waiters.popFirst() else { return false }
        answers.append((waiter, answer))
        return true
    }

    @inlinable
    static func outcome(of completion: Subscribers.Completion<Failure>) -> Result<Output?, Failure> {
        switch completion {
        case .finished: return .success(nil)
        case .failure(let error): return .failure(error)
        }
    }
}

/// What an async iterator owns: when the last copy of the iterator goes away (the loop broke,
/// returned or threw), the subscription is cancelled.
@usableFromInline
internal final class IterationToken<Output, Failure: Error>: Sendable {
    @usableFromInline
    internal let relay: IterationSubscriber<Output, Failure>

    @usableFromInline
    internal init(relay: IterationSubscriber<Output, Failure>) {
        self.relay = relay
    }

    deinit {
        relay.cancel()
    }
}
