/// A `sink` made on a subject: the subject's subscription and the sink in one object.
///
/// `subject.sink { … }` is the commonest subscription applications make. Made the general way it
/// is three objects, the `AnyCancellable`, a `Subscribers.Sink` and the subject's
/// ``SubjectSubscription`` (288 bytes of heap), and a value crosses two hand-offs: the
/// conduit's turn and the sink's own guard of its closures. What a `Sink` asks of a subject is
/// always the same, `.unlimited` at once, and nobody but the sink ever sees the subscription, so
/// the subjects' `sink` makes this one object instead (the `AnyCancellable` holds it): no demand
/// to count, a value is the subject's lock, one turn and the closure.
///
/// What a user can observe is what the general way gives: values in order, one at a time, a
/// reentrant send delivered after the current value and before the outer `send()` returns,
/// the completion after every value sent before it, closures released at the end (on cancel
/// from another thread, by whichever of the two sides finishes last, as ``SubjectLane`` has it
/// for a conduit), termination reported to TetherExtras' lifetimes, and a ledger entry that names
/// a `Sink` on the subject. An `ObservableObjectPublisher`'s `sink` is one too: its parent is
/// the publisher's ``ObservableObjectPublisher/Hub``, the list of subscriptions that the
/// publisher's other subscriptions hold too, rather than the publisher.
///
/// The state under ``lock`` is the subject the sink is attached to and the termination
/// handlers; everything else is touched only by the thread whose turn it is. A thread that
/// sends while another delivers waits for its turn (``DownstreamTurn``), so values left from
/// inside a delivery (`left`, `leftInTurn`) are only ever written and read by the turn's
/// holder.
@usableFromInline
package final class SubjectSink<Output, Failure: Error>: SubjectConduitProtocol, Cancellable,
    TerminationReporting, CustomStringConvertible, @unchecked Sendable
{
    /// The value closure; `nil` once released (see ``releaseOwed()``).
    @usableFromInline @exclusivity(unchecked)
    package var onValue: ((Output) -> Void)?

    /// The completion closure; `nil` once released.
    @usableFromInline @exclusivity(unchecked)
    package var onCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    /// Under ``lock``: the subject, until the sink ends, and the termination handlers.
    @usableFromInline @exclusivity(unchecked)
    package var state: SubjectSinkState

    /// Values sent from inside a delivery on the delivering thread, for it to deliver next, and a
    /// completion sent there after them (kept in the same rarely made object, so that the sink
    /// takes no room for it).
    @usableFromInline @exclusivity(unchecked)
    package var left: SubjectLeftValues<Output>?

    @usableFromInline
    package let turn = DownstreamTurn()

    @usableFromInline
    package let lock = Locked(())

    @usableFromInline
    package let lane = SubjectLane()

    /// Whether something was left from inside the current delivery.
    @usableFromInline @exclusivity(unchecked)
    package var leftInTurn = false

    @inlinable
    package init(
        parent: any SubjectConduitParent,
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) {
        onValue = receiveValue
        onCompletion = receiveCompletion
        state = SubjectSinkState(parent: parent)
        lane.open()
        // To whoever reads the ledger this is the `Sink` their code made.
        Ledger.enter(self, as: Subscribers.Sink<Output, Failure>.self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// The subject's handle on this sink.
    @inlinable
    package var entry: SubjectEntry<Output, Failure> {
        SubjectEntry(conduit: self) { unsafeDowncast($0 as AnyObject, to: SubjectSink.self).offer($1) }
    }

    /// Runs `body` in this sink's turn, then delivers what was left meanwhile and releases the
    /// closures if the sink ended (see ``SubjectLane/run(_:in:release:)``).
    /// - Returns: `false`, without running `body`, when this thread holds the turn already.
    @inlinable
    package func inTurn(_ body: () -> Void) -> Bool {
        lane.run(
            {
                body()
                if leftInTurn {
                    drain()
                }
            }, in: turn, release: { releaseClosures() })
    }

    /// What is left from inside deliveries, made on first use. Only in the turn.
    @inlinable
    package var leftQueue: SubjectLeftValues<Output> {
        if let left { return left }
        let made = SubjectLeftValues<Output>(copying: nil)
        left = made
        return made
    }

    /// Delivers `value`, or leaves it for the delivery this thread is in.
    @inlinable
    package func offer(_ value: Output) {
        let ran = inTurn {
            if lane.isOpen {
                // Borrowed: the lane leaves a cancel's release to the end of this turn.
                InPlace.call(&onValue, with: value)
            }
        }
        if !ran, lane.isOpen, left?.completion == nil {
            leftQueue.values.append(value)
            leftInTurn = true
        }
    }

    /// Attaches the sink and delivers what `attach` returns first, in the sink's turn, so that a
    /// send from another thread meanwhile waits and comes after it: `attach`, which runs under
    /// the subject's lock, attaches ``entry`` and returns the current value (a
    /// `CurrentValueSubject`'s, a published property's), or returns the completion of a subject
    /// that has ended.
    @inlinable
    package func attach(
        deliveringFirst attach: () -> (value: Output?, completion: Subscribers.Completion<Failure>?)
    ) {
        _ = inTurn {
            let (value, completion) = attach()
            if let value {
                if lane.isOpen {
                    InPlace.call(&onValue, with: value)
                }
            } else if let completion {
                complete(completion)
            }
        }
    }

    /// The subject finished: delivers the completion, or leaves it for the delivery this thread
    /// is in.
    @inlinable
    package func finish(_ completion: Subscribers.Completion<Failure>) {
        let ran = inTurn { complete(completion) }
        if !ran, lane.isOpen, left?.completion == nil {
            leftQueue.completion = SubjectOutcome(completion)
            leftInTurn = true
        }
    }

    /// Delivers `completion` in this thread's turn and ends the sink; the subject has let go of
    /// it already.
    @inlinable
    package func complete(_ completion: Subscribers.Completion<Failure>) {
        // The subject's reference is dropped here, outside the lock.
        guard let (_, handlers) = lock.withLock({ _ in state.end() }) else { return }
        lane.stop()
        let receiveCompletion = onCompletion
        releaseOwed()
        receiveCompletion?(completion)
        for handler in handlers { handler() }
    }

    /// Delivers what was left from inside deliveries, in order, including what those deliveries
    /// leave; drops it once the sink has ended.
    @inlinable
    package func drain() {
        while lane.isOpen {
            leftInTurn = false
            if let value = left?.values.popFirst() {
                InPlace.call(&onValue, with: value)
            } else if let outcome = left?.completion {
                left?.completion = nil
                complete(outcome.completion())
            } else {
                return
            }
        }
        leftInTurn = false
        left = nil
    }

    /// Releases the closures once the sink has stopped, in the turn.
    @inlinable
    package func releaseOwed() {
        lane.releaseIfOwed { releaseClosures() }
    }

    @inlinable
    package func releaseClosures() {
        onValue = nil
        onCompletion = nil
    }

    @inlinable
    package func cancel() {
        guard let (parent, handlers) = lock.withLock({ _ in state.end() }) else { return }
        lane.stop()
        // Otherwise a delivery is in progress, on this thread or another, and lets go at its end.
        _ = turn.ifFree { releaseOwed() }
        parent.detach(self)
        for handler in handlers { handler() }
    }

    package func observeTermination(_ handler: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock { _ in state.termination.observe(handler) }
    }

    @usableFromInline
    package var description: String { "Sink" }
}

/// What a ``SubjectSink`` keeps under its lock: the subject it is attached to, and the
/// termination handlers TetherExtras' lifetimes register.
@usableFromInline
package struct SubjectSinkState {
    @usableFromInline package var parent: (any SubjectConduitParent)?
    @usableFromInline package var termination = TerminationHandlers.running([])

    @inlinable
    package init(parent: any SubjectConduitParent) {
        self.parent = parent
    }

    /// Ends the sink: the subject to let go of and the handlers to run, or `nil` if it had ended.
    @inlinable
    package mutating func end() -> (any SubjectConduitParent, [@Sendable () -> Void])? {
        guard let parent else { return nil }
        self.parent = nil
        return (parent, termination.end())
    }
}
