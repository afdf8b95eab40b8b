import TetherCore
import Observation

extension Observable where Self: AnyObject {
    /// Publishes the value at `keyPath` now, then again after each change to what reading it
    /// touched, re-read on `scheduler`: a bridge from Swift's Observation to a publisher.
    ///
    /// Observation reports a change from the property's `willSet`, before the new value is
    /// stored, so the value is not read then: the change schedules a re-read on `scheduler`,
    /// which runs after the setter returns (on the scheduler's next turn) and publishes what it
    /// reads. The timing therefore follows the scheduler:
    ///
    /// - Changes made before the re-read runs coalesce: it publishes the value as it is then,
    ///   once, so every published value was current when read, but not every intermediate value
    ///   is published.
    /// - Each re-read publishes what it reads, even if equal to the previous value.
    /// - Make changes on the scheduler's own thread (the main actor with `DispatchQueue.main` or
    ///   `RunLoop.main`, say), so that the re-read cannot run while a setter is still under way;
    ///   a scheduler that runs actions at once, such as ``ImmediateScheduler``, would re-read
    ///   inside `willSet` and publish the old value.
    ///
    /// Demand: the first value is read, and tracking starts, at the first request; a value read
    /// while there is no demand waits, replaced by any newer one, until the next request. It
    /// never completes; the failure type is `Never`. The first value is delivered on the thread
    /// of the first request; values after changes on `scheduler` (or on a requesting thread, for
    /// a value that waited for demand). The publisher and each subscription hold the object
    /// strongly until cancelled; the tracking holds the subscription only weakly, so keep the
    /// subscription (as `sink` and `assign` do) for as long as it should run.
    /// - Parameters:
    ///   - keyPath: The value to publish; every observable property it reads is tracked.
    ///   - scheduler: The scheduler that re-reads the value after each change.
    ///   - options: Options for the scheduler.
    /// - Returns: A publisher of the value at `keyPath`, current and after each change.
    @inlinable
    public func publisher<Value, Context: Scheduler>(
        for keyPath: KeyPath<Self, Value>, scheduler: Context, options: Context.SchedulerOptions? = nil
    ) -> Publishers.Observed<Self, Value, Context> {
        Publishers.Observed(object: self, keyPath: keyPath, scheduler: scheduler, options: options)
    }
}

extension Publishers {
    /// A publisher of a value read from an `@Observable` object: the current value, then the
    /// value re-read on a scheduler after each change Observation reports.
    ///
    /// See `publisher(for:scheduler:options:)` on `Observable` for the timing, which
    /// follows from Observation reporting changes before they are stored.
    public struct Observed<Root: Observable & AnyObject, Value, Context: Scheduler>: Publisher {
        /// The kind of values published by this publisher: the value at ``keyPath``.
        public typealias Output = Value

        /// The kind of errors this publisher might publish: it cannot fail.
        public typealias Failure = Never

        /// The observed object.
        public let object: Root

        /// The value to publish; every observable property it reads is tracked.
        public let keyPath: KeyPath<Root, Value>

        /// The scheduler that re-reads the value after each change.
        public let scheduler: Context

        /// Options for the scheduler.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher of the value at `keyPath` of `object`.
        /// - Parameters:
        ///   - object: The observed object.
        ///   - keyPath: The value to publish.
        ///   - scheduler: The scheduler that re-reads the value after each change.
        ///   - options: Options for the scheduler.
        @inlinable
        public init(
            object: Root, keyPath: KeyPath<Root, Value>, scheduler: Context, options: Context.SchedulerOptions? = nil
        ) {
            self.object = object
            self.keyPath = keyPath
            self.scheduler = scheduler
            self.options = options
        }

        /// Attaches `subscriber` through a subscription described as "Observed"; tracking starts
        /// at its first request.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: Inner(downstream: subscriber, publisher: self))
        }
    }
}

extension Publishers.Observed {
    /// The subscription: reads and tracks the value, and delivers it through a drain loop, so
    /// that a requesting thread and the scheduler never call the downstream at once. No call out
    /// is made under the lock.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscription, ObservedChangeTarget, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Value, Downstream.Failure == Never {
        @usableFromInline
        internal struct State {
            /// `nil` once cancelled.
            @usableFromInline var downstream: Downstream?
            @usableFromInline var object: Root?
            @usableFromInline var demand = Subscribers.Demand.none
            /// The latest value read and not yet delivered.
            @usableFromInline var pending: Value?
            @usableFromInline var tracking = false
            @usableFromInline var draining = false

            @inlinable
            init(downstream: Downstream, object: Root) {
                self.downstream = downstream
                self.object = object
            }

            /// The next value to deliver, if there is one, demand for it and no other drainer;
            /// the caller becomes the drainer.
            @inlinable
            mutating func takeNext() -> (Downstream, Value)? {
                guard let downstream, demand > 0, let value = pending else {
                    draining = false
                    return nil
                }
                draining = true
                demand -= 1
                pending = nil
                return (downstream, value)
            }
        }

        @usableFromInline
        internal let state: Locked<State>

        @usableFromInline
        internal let keyPath: KeyPath<Root, Value>

        @usableFromInline
        internal let scheduler: Context

        @usableFromInline
        internal let options: Context.SchedulerOptions?

        @inlinable
        internal init(downstream: Downstream, publisher: Publishers.Observed<Root, Value, Context>) {
            state = Locked(State(downstream: downstream, object: publisher.object))
            keyPath = publisher.keyPath
            scheduler = publisher.scheduler
            options = publisher.options
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Observed was asked for .none")
            let start = state.withLock { state -> Root? in
                guard state.downstream != nil else { return nil }
                state.demand += demand
                guard !state.tracking else { return nil }
                state.tracking = true
                return state.object
            }
            if let start {
                track(start)
            }
            drain()
        }

        /// Reads the value and tracks what the read touched; the tracking is one-shot, so each
        /// change re-reads (and re-tracks) once.
        @inlinable
        internal func track(_ object: Root) {
            let keyPath = self.keyPath
            // Observation's report is `@Sendable`: it captures the target as a non-generic
            // existential, so that it carries no generic metatypes across threads.
            weak let target: (any ObservedChangeTarget)? = self
            let value = withObservationTracking {
                object[keyPath: keyPath]
            } onChange: {
                target?.changed()
            }
            state.withLock { state in
                guard state.downstream != nil else { return }
                state.pending = value
            }
        }

        /// Observation's `willSet` report: the value is not stored yet, so re-read it later.
        @usableFromInline
        internal func changed() {
            // A captured `weak let` rather than `[weak self]`, whose reads the run time checks for
            // exclusivity (Docs/FastWithoutTheSpecialiser.md).
            weak let inner = self
            scheduler.schedule(options: options) { inner?.reread() }
        }

        @inlinable
        internal func reread() {
            guard let object = state.withLock({ $0.object }) else { return }
            track(object)
            drain()
        }

        @inlinable
        internal func drain() {
            var next = state.withLock { state -> (Downstream, Value)? in
                guard !state.draining else { return nil }
                return state.takeNext()
            }
            while let (downstream, value) = next {
                let more = downstream.receive(value)
                next = state.withLock { state -> (Downstream, Value)? in
                    state.demand += more
                    return state.takeNext()
                }
            }
        }

        @inlinable
        internal func cancel() {
            let released = state.withLock { state -> (Downstream?, Root?) in
                defer {
                    state.downstream = nil
                    state.object = nil
                    state.pending = nil
                }
                return (state.downstream, state.object)
            }
            _ = released
        }

        @usableFromInline
        internal var description: String { "Observed" }

        @usableFromInline
        internal var customMirror: Mirror {
            let demand = state.withLock { $0.demand }
            return Mirror(self, children: ["demand": demand])
        }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

/// What Observation's change report calls: the subscription of ``Publishers/Observed``, seen
/// through a non-generic protocol.
@usableFromInline
internal protocol ObservedChangeTarget: AnyObject, Sendable {
    /// A tracked property is about to change.
    func changed()
}
