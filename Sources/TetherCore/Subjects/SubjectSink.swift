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
/// send or completion from inside a delivery on the delivering thread delivered at once, nested
/// in it (as Combine's recursive lock does), the completion after every value sent before it,
/// closures released at the end (on cancel from another thread, by whichever of the two sides
/// finishes last, as ``SubjectLane`` has it for a conduit), termination reported to
/// TetherExtras' lifetimes, and a ledger entry that names a `Sink` on the subject. An
/// `ObservableObjectPublisher`'s `sink` is one too: its parent is the publisher's
/// ``ObservableObjectPublisher/Hub``, the list of subscriptions that the publisher's other
/// subscriptions hold too, rather than the publisher.
///
/// The state under ``lock`` is the subject the sink is attached to and the termination
/// handlers; the closures are touched only by the thread whose turn it is (a thread that sends
/// while another delivers waits for its turn, ``DownstreamTurn``), and let go of at the end of
/// its outermost turn, where no delivery is in flight (``SubjectLane``).
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

    @usableFromInline
    package let turn = DownstreamTurn()

    @usableFromInline
    package let lock = Locked(())

    @usableFromInline
    package let lane = SubjectLane()

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

    /// Runs `body` in this sink's turn, then releases the closures if the sink ended (see
    /// ``SubjectLane/run(_:in:release:)``).
    /// - Returns: `false`, without running `body`, when this thread holds the turn already.
    @inlinable
    package func inTurn(_ body: () -> Void) -> Bool {
        lane.run(body, in: turn, release: { releaseClosures() })
    }

    /// Delivers `value` in this sink's turn, or nested in the delivery this thread is in, as in
    /// Combine.
    @inlinable
    package func offer(_ value: Output) {
        if !inTurn({ deliver(value) }) {
            deliver(value)
        }
    }

    /// Calls the value closure, unless the sink has ended.
    @inlinable
    package func deliver(_ value: Output) {
        if lane.isOpen {
            // Borrowed, nested deliveries too (both only read it): the lane leaves a cancel's or
            // a completion's release to the end of the outermost turn.
            InPlace.call(&onValue, with: value)
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
                complete(completion, nested: false)
            }
        }
    }

    /// The subject finished: delivers the completion in this sink's turn, or nested in the
    /// delivery this thread is in, as in Combine.
    @inlinable
    package func finish(_ completion: Subscribers.Completion<Failure>) {
        if !inTurn({ complete(completion, nested: false) }) {
            complete(completion, nested: true)
        }
    }

    /// Delivers `completion` and ends the sink; the subject has let go of it already.
    /// - Parameter nested: The completion is nested in a delivery of a value, whose closure is
    ///   still running where it is kept: the closures are then let go of at the end of the
    ///   outermost turn rather than before the completion closure runs.
    @inlinable
    package func complete(_ completion: Subscribers.Completion<Failure>, nested: Bool) {
        // The subject's reference is dropped here, outside the lock.
        guard let (_, handlers) = lock.withLock({ _ in state.end() }) else { return }
        lane.stop()
        let receiveCompletion = onCompletion
        if !nested {
            releaseOwed()
        }
        receiveCompletion?(completion)
        for handler in handlers { handler() }
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
