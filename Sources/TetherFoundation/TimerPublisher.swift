import Foundation
import TetherCore

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval.
    ///
    /// The publisher is connectable: it starts its timer when you call
    /// ``TimerPublisher/connect()`` (or when the first subscriber attaches through
    /// `autoconnect()`), and stops and invalidates it when that connection is cancelled.
    ///
    /// The timer fires on `runLoop`, and only while that run loop runs in `mode`. On Linux nothing
    /// runs `RunLoop.main` by itself: a command-line program or a test must run it (for example
    /// with `RunLoop.main.run(until:)`), or the timer must be put on the run loop of a thread
    /// that runs it.
    /// - Parameters:
    ///   - interval: The time interval on which to publish events. For example, a value of `0.5`
    ///     publishes an event approximately every half-second.
    ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`. As in
    ///     Combine, this method does not pass it on: the publisher's
    ///     ``TimerPublisher/tolerance`` is `nil` whatever is given here; create a
    ///     ``TimerPublisher`` directly to set one.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    /// - Returns: A publisher that repeatedly emits the current date on the given interval.
    public static func publish(
        every interval: TimeInterval, tolerance: TimeInterval? = nil, on runLoop: RunLoop,
        in mode: RunLoop.Mode, options: RunLoop.SchedulerOptions? = nil
    ) -> Timer.TimerPublisher {
        // Combine's `publish` drops the tolerance (OpenCombine's suite, which its authors run
        // against Combine, records `tolerance == nil` for a publisher made with one).
        TimerPublisher(interval: interval, tolerance: nil, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on a given interval.
    ///
    /// It is a connectable publisher shared by all its subscribers: one timer, started by
    /// ``connect()``, sends `Date()` to every attached subscriber each time it fires, on the
    /// thread of the run loop it was given. A subscriber without outstanding demand misses that
    /// tick. Cancelling the connection invalidates the timer; the subscribers stay attached and
    /// receive nothing until the next connection. The publisher never completes and never fails.
    /// Requesting `.none` is a contract violation and traps.
    public final class TimerPublisher: ConnectablePublisher, @unchecked Sendable {
        // @unchecked Sendable: its settings are constants and its subscribers are held under
        // `hub`'s lock; the run loop (not `Sendable` on Linux) only schedules the timer.

        /// The kind of values published by this publisher: the date of each tick.
        public typealias Output = Date

        /// The kind of errors this publisher might publish: it never fails.
        public typealias Failure = Never

        /// The interval on which the timer fires.
        public final let interval: TimeInterval

        /// The allowed timing variance when emitting events; `nil` allows any variance.
        public final let tolerance: TimeInterval?

        /// The run loop on which the timer runs.
        public final let runLoop: RunLoop

        /// The run loop mode in which the timer runs.
        public final let mode: RunLoop.Mode

        /// Scheduler options passed to the timer.
        public final let options: RunLoop.SchedulerOptions?

        private let hub = Locked(TimerHub())

        /// Creates a publisher that repeatedly emits the current date on the given interval.
        /// - Parameters:
        ///   - interval: The interval on which to publish events.
        ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`,
        ///     which allows any variance.
        ///   - runLoop: The run loop on which the timer runs.
        ///   - mode: The run loop mode in which to run the timer.
        ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
        public init(
            interval: TimeInterval, tolerance: TimeInterval? = nil, runLoop: RunLoop, mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches `subscriber`; it receives ticks, as far as it demands them, once connected.
        /// - Parameter subscriber: The subscriber to attach.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Date, S.Failure == Never {
            let subscription = TimerSubscription(downstream: subscriber, parent: self)
            hub.withLock { $0.receivers.append(subscription) }
            subscriber.receive(subscription: subscription)
        }

        /// Starts the timer, allowing the publisher to produce elements, and returns an instance
        /// with which to cancel publishing.
        ///
        /// While connected, calling it again returns the same connection.
        /// - Returns: A `Cancellable` that stops and invalidates the timer. Keep it: the timer
        ///   runs until it is cancelled.
        public func connect() -> any Cancellable {
            let (connection, isNew) = hub.withLock { hub -> (TimerConnection, Bool) in
                if let connection = hub.connection { return (connection, false) }
                let connection = TimerConnection(parent: self)
                hub.connection = connection
                return (connection, true)
            }
            guard isNew else { return connection }
            let target = TimerTarget(connection)
            // The first tick comes one interval after connecting. The fire date is explicit:
            // swift-corelibs-foundation's `Timer(timeInterval:repeats:block:)` fires at once.
            let timer = Timer(fire: Date(timeIntervalSinceNow: interval), interval: interval, repeats: true) { _ in
                target.fire()
            }
            if let tolerance {
                timer.tolerance = tolerance
            }
            runLoop.add(timer, forMode: mode)
            connection.started(timer, target: target)
            return connection
        }

        /// One tick: every receiver of the live connection gets the current date.
        fileprivate func fire(for connection: TimerConnection) {
            let receivers = hub.withLock { hub -> [any TimerTickReceiver] in
                guard hub.connection === connection else { return [] }
                return hub.receivers
            }
            guard !receivers.isEmpty else { return }
            let now = Date()
            for receiver in receivers {
                receiver.tick(now)
            }
        }

        /// The connection was cancelled: no more ticks from it.
        fileprivate func disconnect(_ connection: TimerConnection) {
            hub.withLock { hub in
                if hub.connection === connection {
                    hub.connection = nil
                }
            }
        }

        /// A subscription was cancelled: it gets no more ticks.
        fileprivate func remove(_ receiver: any TimerTickReceiver) {
            let removed = hub.withLock { hub -> [any TimerTickReceiver] in
                let kept = hub.receivers.filter { $0 !== receiver }
                defer { hub.receivers = kept }
                return hub.receivers
            }
            // The removed subscription is released here, outside the lock.
            _ = removed
        }
    }
}

/// What a ``Foundation/Timer/TimerPublisher`` shares between its subscribers, under its lock.
private struct TimerHub {
    var receivers: [any TimerTickReceiver] = []
    var connection: TimerConnection?
}

/// A timer subscription, seen from the publisher, whatever its subscriber's type.
private protocol TimerTickReceiver: AnyObject, Sendable {
    func tick(_ date: Date)
}

/// What a running timer's block holds: the connection, until it is cancelled.
///
/// While connected, the run loop holds the timer, the timer this target, and the target the
/// connection and its publisher, so a connection runs until cancelled even when nobody keeps
/// the publisher, as in Combine. The cancel cuts the link: swift-corelibs-foundation keeps an
/// invalidated `Timer` (and its block) alive, so the block must not hold the publisher itself.
private final class TimerTarget: Sendable {
    private let link: Locked<TimerConnection?>

    init(_ connection: TimerConnection) {
        link = Locked(connection)
    }

    func fire() {
        link.withLock { $0 }?.fire()
    }

    func cut() {
        let released = link.withLock { link -> TimerConnection? in
            defer { link = nil }
            return link
        }
        _ = released
    }
}

/// The `Cancellable` that ``Foundation/Timer/TimerPublisher/connect()`` returns: it owns the
/// timer and invalidates it on cancel.
// @unchecked Sendable: the timer and its target live in `phase`, touched only under its lock.
private final class TimerConnection: Cancellable, @unchecked Sendable {
    private enum Phase {
        case starting
        case running(Timer, TimerTarget)
        case cancelled
    }

    private let phase = Locked(Phase.starting)
    private let parent: Timer.TimerPublisher

    init(parent: Timer.TimerPublisher) {
        self.parent = parent
    }

    /// The timer was put on its run loop; a cancel that came first invalidates it now.
    func started(_ timer: Timer, target: TimerTarget) {
        let cancelledMeanwhile = phase.withLock { phase -> Bool in
            guard case .starting = phase else { return true }
            phase = .running(timer, target)
            return false
        }
        if cancelledMeanwhile {
            timer.invalidate()
            target.cut()
        }
    }

    func fire() {
        parent.fire(for: self)
    }

    func cancel() {
        let previous = phase.withLock { phase -> Phase in
            defer { phase = .cancelled }
            return phase
        }
        if case .cancelled = previous { return }
        parent.disconnect(self)
        if case .running(let timer, let target) = previous {
            timer.invalidate()
            target.cut()
        }
    }
}

/// One subscriber's subscription to a ``Foundation/Timer/TimerPublisher``. Like Combine's, it
/// neither describes nor reflects itself.
// @unchecked Sendable: the subscriber and the demand live in `state`, touched only under its lock;
// the parent is a weak reference to a Sendable publisher.
private final class TimerSubscription<Downstream: Subscriber>: Subscription, TimerTickReceiver,
    @unchecked Sendable
where Downstream.Input == Date, Downstream.Failure == Never {
    private struct State {
        /// `nil` once cancelled.
        var downstream: Downstream?
        var demand: Subscribers.Demand = .none
    }

    private let state: Locked<State>
    private weak var parent: Timer.TimerPublisher?

    init(downstream: Downstream, parent: Timer.TimerPublisher) {
        state = Locked(State(downstream: downstream))
        self.parent = parent
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    /// Ticks arrive one at a time, on the timer's run loop thread.
    func tick(_ date: Date) {
        let target = state.withLock { state -> Downstream? in
            guard let downstream = state.downstream, state.demand > 0 else { return nil }
            state.demand -= 1
            return downstream
        }
        guard let target else { return }
        let more = target.receive(date)
        guard more > 0 else { return }
        state.withLock { state in
            if state.downstream != nil {
                state.demand += more
            }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: Timer.TimerPublisher was asked for .none")
        state.withLock { state in
            if state.downstream != nil {
                state.demand += demand
            }
        }
    }

    func cancel() {
        let released = state.withLock { state -> Downstream? in
            defer { state.downstream = nil }
            return state.downstream
        }
        guard released != nil else { return }
        parent?.remove(self)
    }
}
