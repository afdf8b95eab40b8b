import Synchronization

extension Publishers {
    /// A publisher that publishes a given sequence of elements.
    ///
    /// Elements are produced lazily, only as the subscriber demands them, and the publisher
    /// finishes as soon as the last element has been delivered. An empty sequence hands the
    /// subscriber ``Subscriptions/empty`` and finishes at once. Requesting `.none` is a
    /// contract violation and traps.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The kind of values published by this publisher.
        public typealias Output = Elements.Element

        /// The sequence of elements to publish.
        public let sequence: Elements

        /// Creates a publisher for a sequence of elements.
        /// - Parameter sequence: The sequence of elements to publish.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Attaches `subscriber`; values are produced on the thread that requests them.
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S)
        where S.Input == Elements.Element, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            if let first = iterator.next() {
                // This function is specialised in the caller's module; `request` is reached
                // through `any Subscription` and is not. So the demand asked for during
                // `receive(subscription:)` (all of it, for a sink) is drained from here.
                let inner = Inner(downstream: subscriber, sequence: sequence)
                subscriber.receive(subscription: inner)
                inner.drain(subscriber, .init(iterator: iterator, next: first), .none)
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.Sequence {
    /// The subscription: a drain loop that owns the iterator while it runs.
    ///
    /// Demand is handed over without a lock: `request` adds to the atomic `pending` and becomes
    /// the drainer only if nobody is draining (`draining` flips from `false` to `true`). The
    /// drainer takes the iterator out of the state, delivers until the demand it took is spent,
    /// picks up `pending` again, and parks the iterator when there is none — then looks once more,
    /// so a request that raced with parking is not lost. A request from inside `receive` (a
    /// subscriber asking one at a time) is therefore two atomic operations, and delivery never
    /// recurses and never overlaps. The thread that subscribes starts as the drainer, so the
    /// demand a subscriber asks for in `receive(subscription:)` is delivered from code
    /// specialised in the caller's module.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscription, SpecializedControl, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        @usableFromInline
        internal struct Cursor {
            @usableFromInline var iterator: Elements.Iterator
            @usableFromInline var next: Elements.Element

            @inlinable
            init(iterator: Elements.Iterator, next: Elements.Element) {
                self.iterator = iterator
                self.next = next
            }
        }

        @usableFromInline
        internal struct State {
            /// `nil` once finished or cancelled.
            @usableFromInline var downstream: Downstream?
            /// `nil` while a drainer holds it.
            @usableFromInline var cursor: Cursor?

            @inlinable
            init(downstream: Downstream) {
                self.downstream = downstream
            }
        }

        /// `request` and `cancel`, specialised (see ``ControlSignal``).
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        @usableFromInline
        internal let state: Locked<State>

        /// Demand asked for and not yet taken by a drainer, as `Subscribers.Demand`'s raw value.
        @usableFromInline
        internal let pending = Atomic<UInt>(0)

        /// Whether a drainer holds the cursor; the subscribing thread holds it at first.
        @usableFromInline
        internal let draining = Atomic<Bool>(true)

        /// Set by `cancel`, read by the drain loop before every element.
        @usableFromInline
        internal let cancelled = Atomic<Bool>(false)

        /// Kept for `description`, which prints the sequence as Combine does.
        @usableFromInline
        internal let sequence: Elements

        @inlinable
        internal init(
            downstream: Downstream, sequence: Elements
        ) {
            control = Inner.controlEntry
            self.sequence = sequence
            state = Locked(State(downstream: downstream))
            SubscriptionLedger.enter(self)
        }

        deinit {
            SubscriptionLedger.leave(self)
        }

        @inlinable
        internal func request(_ demand: Subscribers.Demand) {
            control(self, .request(demand))
        }

        @inlinable
        internal func cancel() {
            control(self, .cancel)
        }

        @inlinable
        internal func requestNow(_ demand: Subscribers.Demand) {
            precondition(demand > 0, "Demand must not be zero: Publishers.Sequence was asked for .none")
            var current = pending.load(ordering: .relaxed)
            while true {
                let sum = (Subscribers.Demand(rawValue: current) + demand).rawValue
                let (exchanged, original) = pending.compareExchange(
                    expected: current, desired: sum, ordering: .sequentiallyConsistent)
                if exchanged { break }
                current = original
            }
            // Sequentially consistent with the drainer's "clear `draining`, then look at
            // `pending`": two threads each writing one flag and reading the other (a store then a
            // load, which acquire/release lets the processor reorder) would otherwise both miss
            // the other's write, and this demand would be stranded with nobody draining.
            guard draining.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent)
                .exchanged
            else { return }
            if let (downstream, cursor) = takeCursor() {
                drain(downstream, cursor, .none)
            }
        }

        /// Takes the parked cursor for a new drainer, or gives up draining if cancelled.
        @inlinable
        internal func takeCursor() -> (Downstream, Cursor)? {
            let taken = state.withLock { state -> (Downstream, Cursor)? in
                guard let downstream = state.downstream, let cursor = state.cursor else { return nil }
                state.cursor = nil
                return (downstream, cursor)
            }
            if taken == nil {
                draining.store(false, ordering: .releasing)
            }
            return taken
        }

        @inlinable
        internal func drain(_ downstream: Downstream, _ cursor: Cursor, _ budget: Subscribers.Demand) {
            var iterator = cursor.iterator
            var next = cursor.next
            var budget = budget
            while true {
                while budget > 0 {
                    if cancelled.load(ordering: .relaxed) { return }
                    budget -= 1
                    budget += downstream.receive(next)
                    guard let following = iterator.next() else {
                        finish(downstream)
                        return
                    }
                    next = following
                }
                let more = pending.exchange(0, ordering: .acquiringAndReleasing)
                if more > 0 {
                    budget = Subscribers.Demand(rawValue: more)
                    continue
                }
                let parked = state.withLock { state -> Bool in
                    guard state.downstream != nil else { return false }
                    state.cursor = Cursor(iterator: iterator, next: next)
                    return true
                }
                guard parked else { return }
                draining.store(false, ordering: .sequentiallyConsistent)
                // A request that added demand just before `draining` was cleared saw a drainer
                // and left; look once more so its demand is not stranded. (Sequentially
                // consistent: see `requestNow`.)
                guard pending.load(ordering: .sequentiallyConsistent) > 0,
                    draining.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent)
                        .exchanged,
                    let (_, resumed) = takeCursor()
                else { return }
                iterator = resumed.iterator
                next = resumed.next
            }
        }

        @inlinable
        internal func finish(_ downstream: Downstream) {
            let live = state.withLock { state -> Downstream? in
                defer { state.downstream = nil }
                return state.downstream
            }
            if live != nil {
                downstream.receive(completion: .finished)
            }
        }

        @inlinable
        internal func cancelNow() {
            cancelled.store(true, ordering: .relaxed)
            let released = state.withLock { state -> (Downstream?, Cursor?) in
                defer {
                    state.downstream = nil
                    state.cursor = nil
                }
                return (state.downstream, state.cursor)
            }
            _ = released
        }

        @usableFromInline
        internal var description: String { String(describing: sequence) }

        @usableFromInline
        internal var customMirror: Mirror {
            Mirror(self, children: ["sequence": sequence])
        }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Swift.Sequence {
    /// A publisher that publishes the elements of this sequence, lazily and as demanded.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}

extension Publishers.Sequence {
    /// Transforms every element right away and publishes the results as an array.
    ///
    /// The closure runs over the whole sequence now, once, not per subscriber, so it must not
    /// be used on an infinite sequence.
    /// - Parameter transform: A closure that takes one element and returns a new element.
    /// - Returns: A sequence publisher of the transformed elements, with the same failure type.
    @inlinable
    public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
    }

    /// Keeps, right away, the elements that satisfy the closure and publishes them as an array.
    ///
    /// The closure runs over the whole sequence now, once, not per subscriber.
    /// - Parameter isIncluded: A closure that takes one element and returns whether to keep it.
    /// - Returns: A sequence publisher of the kept elements, with the same failure type.
    @inlinable
    public func filter(_ isIncluded: (Output) -> Bool) -> Publishers.Sequence<[Output], Failure> {
        Publishers.Sequence<[Output], Failure>(sequence: sequence.filter(isIncluded))
    }

    /// Transforms every element right away and publishes the non-`nil` results as an array.
    ///
    /// The closure runs over the whole sequence now, once, not per subscriber.
    /// - Parameter transform: A closure that takes one element and returns an optional element.
    /// - Returns: A sequence publisher of the non-`nil` results, with the same failure type.
    @inlinable
    public func compactMap<T>(_ transform: (Output) -> T?) -> Publishers.Sequence<[T], Failure> {
        Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
    }
}
