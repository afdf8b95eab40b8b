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
