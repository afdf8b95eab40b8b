import TetherCore

/// The state machine behind one subscriber's stream made by ``AnyPublisher/create(_:)``: every
/// method runs under the subscription's lock, calls nothing, and returns what the caller must do
/// once it is released.
///
/// Values the source sends wait in an unbounded buffer until there is demand; a completion waits
/// behind them. One thread at a time drains: a thread that finds another draining leaves its
/// work to it. The cleanup the body returns runs once, when a completion is sent or the
/// subscriber cancels, or as soon as the body returns if that happened while it ran.
///
/// Generic only in what it holds: the subscriber, and the values of its type.
internal struct CreateState<Output, Failure: Error> {
    typealias Downstream = AnySubscriber<Output, Failure>

    /// Where the cleanup the body returns stands.
    internal enum Cleanup {
        /// `body` has not returned yet.
        case awaited
        case stored(AnyCancellable)
        case done
    }

    /// What the source's completion leads to.
    internal enum Ending {
        /// Nothing: the source had already completed, or the subscriber cancelled.
        case ignore
        /// Drain, so that the completion follows what is buffered, then run the cleanup, if the
        /// body has returned one.
        case drainThenCleanUp(AnyCancellable?)
    }

    /// What a drain does next.
    internal enum Step {
        case stop
        /// Deliver the value, then report the demand it returned with ``delivered(_:)``.
        case value(Output, Downstream)
        /// Send the completion: the drain, and the stream, are over.
        case complete(Downstream, Subscribers.Completion<Failure>)
    }

    var downstream: Downstream?
    /// Values waiting for demand, oldest first; a value leaves as it is delivered.
    var buffer = RingBuffer<Output>()
    var demand = Subscribers.Demand.none
    /// A completion sent by the source, waiting behind the buffer.
    var completion: Subscribers.Completion<Failure>?
    /// A completion was sent or the subscriber cancelled: sends are ignored.
    var sourceDone = false
    var draining = false
    var cleanup = Cleanup.awaited

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// Whether the stream has ended (completed or cancelled), for the emitter.
    var isFinished: Bool { sourceDone }

    /// The body is about to run: `false` when the subscriber cancelled inside
    /// `receive(subscription:)`, and the body must not run.
    mutating func starting() -> Bool {
        guard sourceDone else { return true }
        cleanup = .done
        return false
    }

    /// The body returned `cleanup`: the cleanup to run now, when the stream ended while the body
    /// ran, or `nil` when it is kept for the end.
    mutating func bodyReturned(_ cleanup: AnyCancellable) -> AnyCancellable? {
        guard !sourceDone else {
            self.cleanup = .done
            return cleanup
        }
        self.cleanup = .stored(cleanup)
        return nil
    }

    /// The source sent a value: `true` when it was buffered and a drain must follow, `false`
    /// when the stream has ended and it is ignored.
    mutating func send(_ value: Output) -> Bool {
        guard !sourceDone, downstream != nil else { return false }
        buffer.append(value)
        return true
    }

    /// The source sent its completion: what that leads to (the first one ends the source).
    mutating func send(completion: Subscribers.Completion<Failure>) -> Ending {
        guard !sourceDone else { return .ignore }
        sourceDone = true
        if downstream != nil { self.completion = completion }
        return .drainThenCleanUp(takeCleanup())
    }

    /// The subscriber asked for `more`, counted while it is there. Returns nothing: a drain
    /// follows in any case.
    mutating func request(_ more: Subscribers.Demand) {
        if downstream != nil { demand += more }
    }

    /// The subscriber cancelled: the subscriber and the buffer to let go of outside the lock,
    /// and the cleanup to run, if the body has returned one.
    mutating func cancel() -> (released: Downstream?, buffer: RingBuffer<Output>, cleanup: AnyCancellable?) {
        defer {
            downstream = nil
            buffer.removeAll()
            completion = nil
            sourceDone = true
        }
        return (downstream, buffer, takeCleanup())
    }

    /// A thread wants to drain: ``Step/stop`` when another is draining, which delivers what
    /// this one came for; otherwise the first step of its drain.
    mutating func startDrain() -> Step {
        guard !draining else { return .stop }
        draining = true
        return next(adding: .none)
    }

    /// The drain delivered a value and the subscriber returned `extra` demand: the next step.
    mutating func delivered(_ extra: Subscribers.Demand) -> Step {
        guard draining else { preconditionFailure("AnyPublisher.create was told of a delivery outside a drain") }
        return next(adding: extra)
    }

    /// The next value there is demand for, then the completion once the buffer is empty;
    /// the drain ends when there is neither.
    private mutating func next(adding extra: Subscribers.Demand) -> Step {
        guard let downstream else {
            draining = false
            return .stop
        }
        demand += extra
        if demand > 0, let value = buffer.popFirst() {
            demand -= 1
            return .value(value, downstream)
        }
        if buffer.isEmpty, let completion {
            self.downstream = nil
            self.completion = nil
            draining = false
            return .complete(downstream, completion)
        }
        draining = false
        return .stop
    }

    /// Takes the stored cleanup, once the source is done.
    private mutating func takeCleanup() -> AnyCancellable? {
        guard case .stored(let cleanup) = cleanup else { return nil }
        self.cleanup = .done
        return cleanup
    }
}
