import Synchronization

extension Publishers {
    /// A publisher that publishes a given sequence of elements.
    ///
    /// Elements are produced lazily, only as the subscriber demands them, and the publisher
    /// finishes as soon as the last element has been delivered. An empty sequence hands the
    /// subscriber ``Subscriptions/empty`` and finishes at once. As in Combine, the subscription
    /// delivers from inside the `request` that makes room for a value (a request made within
    /// `receive(subscription:)` included), and a request of `.none` does nothing.
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
                subscriber.receive(
                    subscription: Inner(downstream: subscriber, sequence: sequence, iterator: iterator, next: first))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Publishers.Sequence {
    /// The subscription: a drain loop that owns the iterator and the subscriber while it runs.
    ///
    /// Whoever holds the drain token (`draining` is `true`) owns `downstream` and the parked
    /// cursor; nobody holds it at first, so a request made inside `receive(subscription:)`
    /// delivers at once, as Combine's does. `request` adds to the atomic
    /// `pending` and becomes the drainer only if it wins the token (`draining` flips from
    /// `false` to `true`). The drainer delivers until the demand it took is spent, picks up
    /// `pending` again, and parks the cursor when there is none, giving the token back, then
    /// looks once more, so that a request (or a cancel) that raced with parking is not lost. A
    /// request from inside `receive` (a subscriber asking one at a time) is therefore two atomic
    /// operations, and delivery never recurses and never overlaps.
    ///
    /// `cancel` raises `ended` and tries for the token: won, it lets go of the subscriber and
    /// the cursor at once; lost, the holder sees `ended` before its next element (or when it
    /// looks again after parking) and lets go of them itself. The last element raises `ended`
    /// too, before the completion goes out. Once the stream is over (finished or cancelled) the
    /// token is never given back, so later requests do nothing; `description` and
    /// `customMirror` then say so as Combine's do (`Sequence`, no elements).
    ///
    /// No lock: a generic class's `deinit` runs unspecialised, and there every lock wrapper
    /// around generic state cost a run-time type lookup; what the token guards is one
    /// ``SequenceCursor`` held by ``SubscriptionBase``, which costs none. It is owned by the holder of
    /// the drain token.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: SubscriptionBase<SequenceCursor<Downstream, Elements.Iterator>>,
        Subscription, SpecializedControl, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
        /// `request` and `cancel`, specialised (see ``ControlSignal``).
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        /// Demand asked for and not yet taken by a drainer, as `Subscribers.Demand`'s raw value.
        @usableFromInline
        internal let pending = Atomic<UInt>(0)

        /// The drain token; free at first, with the cursor parked.
        @usableFromInline
        internal let draining = Atomic<Bool>(false)

        /// Set by `cancel` and by the last element; read by the token holder before every
        /// element and after parking, and by `description`.
        @usableFromInline
        internal let ended = Atomic<Bool>(false)

        /// Kept for `description`, which prints the sequence as Combine does.
        @usableFromInline
        internal let sequence: Elements

        @inlinable
        internal init(downstream: Downstream, sequence: Elements, iterator: Elements.Iterator, next: Elements.Element) {
            control = Inner.controlEntry
            self.sequence = sequence
            super.init(state: SequenceCursor(downstream: downstream, iterator: iterator, next: next))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
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
            guard demand > 0 else { return }
            var current = pending.load(ordering: .relaxed)
            while true {
                let sum = (Subscribers.Demand(rawValue: current) + demand).rawValue
                let (exchanged, original) = pending.compareExchange(
                    expected: current, desired: sum, ordering: .sequentiallyConsistent)
                if exchanged { break }
                current = original
            }
            // Sequentially consistent with the drainer's "give the token back, then look at
            // `pending`": two threads each writing one flag and reading the other (a store then
            // a load, which acquire/release lets the processor reorder) would otherwise both miss
            // the other's write, and this demand would be stranded with nobody draining.
            guard takeToken() else { return }
            resume()
        }

        @inlinable
        internal func cancelNow() {
            ended.store(true, ordering: .sequentiallyConsistent)
            // Parked: the token is free, so the subscriber is let go of here. Otherwise its
            // holder sees `ended` and does it.
            if takeToken() {
                release()
            }
        }

        @inlinable
        internal func takeToken() -> Bool {
            draining.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged
        }

        /// With the token: takes the parked cursor up again, unless the stream is over, and drains.
        ///
        /// The subscriber and the cursor are moved out of the state while the token is held and
        /// moved back when it is given back, not copied: a subscriber is often a chain of relays,
        /// and a copy of one retains everything it holds, through its value witnesses.
        @inlinable
        internal func resume() {
            guard !ended.load(ordering: .relaxed), var downstream = state.downstream.take(),
                var iterator = state.iterator.take(), var next = state.next.take()
            else {
                release()
                return
            }
            while drain(downstream, &iterator, &next) {
                state = SequenceCursor(downstream: consume downstream, iterator: iterator, next: next)
                draining.store(false, ordering: .sequentiallyConsistent)
                // A request or a cancel that came just before the token was given back saw a
                // holder and left it to them; look once more so that it is not lost.
                // (Sequentially consistent: see `requestNow`.)
                guard
                    pending.load(ordering: .sequentiallyConsistent) > 0
                        || ended.load(ordering: .sequentiallyConsistent),
                    takeToken()
                else { return }
                guard !ended.load(ordering: .relaxed), let held = state.downstream.take(),
                    let resumed = state.iterator.take(), let following = state.next.take()
                else {
                    release()
                    return
                }
                downstream = held
                iterator = resumed
                next = following
            }
        }

        /// With the token, for good: lets go of the subscriber and the cursor.
        @inlinable
        internal func release() {
            state = SequenceCursor(downstream: nil)
        }

        /// With the token: delivers `next` and what follows while there is demand.
        /// - Returns: `true` when the demand is spent and the cursor is to be parked; `false` when
        ///   the stream is over (the last element went out, or a cancel came), and the subscriber
        ///   and the cursor have been let go of.
        @inlinable
        internal func drain(
            _ downstream: Downstream, _ iterator: inout Elements.Iterator, _ next: inout Elements.Element
        ) -> Bool {
            // In locals while delivering: working on the `inout` ones themselves cost the loop
            // about five more instructions an element.
            var rest = iterator
            var current = next
            var budget = Subscribers.Demand.none
            while true {
                while budget > 0 {
                    if ended.load(ordering: .relaxed) {
                        release()
                        return false
                    }
                    budget -= 1
                    budget += downstream.receive(current)
                    guard let following = rest.next() else {
                        finish(downstream)
                        return false
                    }
                    current = following
                }
                let more = pending.exchange(0, ordering: .acquiringAndReleasing)
                guard more > 0 else {
                    iterator = rest
                    next = current
                    return true
                }
                budget = Subscribers.Demand(rawValue: more)
            }
        }

        /// With the token, for good: the last element went out. A cancel that came first has
        /// already ended the stream, and the completion is not sent.
        @inlinable
        internal func finish(_ downstream: Downstream) {
            state.downstream = nil
            if !ended.exchange(true, ordering: .sequentiallyConsistent) {
                downstream.receive(completion: .finished)
            }
        }

        /// The sequence's own description while the stream lasts, when it has one (an array, a
        /// range, a string), and `"Sequence"` otherwise and once the stream has ended. Apple's
        /// Combine prints a sequence without a description of its own, such as
        /// `stride(from:to:by:)`'s or `dropFirst(_:)`'s, as `Sequence`, not as its mirror.
        @usableFromInline
        internal var description: String {
            guard !ended.load(ordering: .relaxed),
                sequence is any CustomStringConvertible || sequence is any TextOutputStreamable
            else { return "Sequence" }
            return String(describing: sequence)
        }

        @usableFromInline
        internal var customMirror: Mirror {
            let elements: Any = ended.load(ordering: .relaxed) ? [Elements.Element]() : sequence
            // Suppressed: the state holder this class inherits from is no part of Combine's mirror.
            return Mirror(self, children: ["sequence": elements], ancestorRepresentation: .suppressed)
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
