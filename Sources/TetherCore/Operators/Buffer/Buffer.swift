extension Publisher {
    /// Buffers elements received from an upstream publisher.
    ///
    /// Use it to collect up to `size` elements from an upstream publisher before republishing
    /// them to the downstream subscriber as it demands them, according to the
    /// ``Publishers/PrefetchStrategy`` and ``Publishers/BufferingStrategy`` you specify. In
    /// front of a subject, it keeps the values sent while the subscriber has no demand, which
    /// the subject would otherwise drop.
    ///
    /// Demand: `.keepFull` asks the upstream for `size` elements on subscription, then for one
    /// more per element delivered downstream; `.byRequest` asks for `.unlimited` and relies on
    /// `whenFull` to bound the buffer. `.finished` is delivered once the buffer is empty and the
    /// subscriber has outstanding demand; a failure as soon as the subscriber has no
    /// outstanding demand, dropping what is still buffered. Values are delivered on the thread
    /// that sends them upstream, or on the thread that requests them.
    ///
    /// As in Combine: a buffer of size zero is always full, so `whenFull` sees every value
    /// (`.dropNewest` drops them all); with `.keepFull`, the values a request delivers are asked
    /// back of the upstream even after it completed or was cancelled for a `.customError`
    /// overflow; and a value sent to the buffer from inside the `customError` closure traps.
    /// - Parameters:
    ///   - size: The maximum number of elements to store.
    ///   - prefetch: The strategy to initially populate the buffer.
    ///   - whenFull: The action to take when the buffer becomes full.
    /// - Returns: A publisher that buffers elements received from an upstream publisher; its
    ///   failure type is the upstream's.
    @inlinable
    public consuming func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

extension Publishers {
    /// A publisher that buffers elements from an upstream publisher.
    ///
    /// See ``Publisher/buffer(size:prefetch:whenFull:)`` for its demand and completion rules.
    /// `request(.none)` is ignored, as in Combine.
    ///
    /// Like Combine's, the buffer hands values over in batches: it takes out at once as many
    /// buffered values as the subscriber has demand for, delivers them one by one, and counts the
    /// demand they return once the batch is done. A completion sent upstream from inside the
    /// subscriber's `receive(_:)`, on the thread delivering a batch, goes down right after the
    /// value in hand, ahead of the rest of the batch, when Combine's would deliver it at once: a
    /// failure when no demand is left beyond the batch, `.finished` when demand is left and
    /// nothing more is buffered. The rest of the batch follows it, as in Combine. A completion
    /// that comes from another thread meanwhile waits for the rest of the batch, whose values the
    /// subscriber asked for. Unlike Combine's, a value that arrives during a batch waits for the
    /// batch, so values keep their order, and a cancel drops the rest of the batch.
    public struct Buffer<Upstream: Publisher>: Publisher {
        /// The kind of values published by this publisher: the upstream's.
        public typealias Output = Upstream.Output

        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of elements to store.
        public let size: Int

        /// The strategy for initially populating the buffer.
        public let prefetch: Publishers.PrefetchStrategy

        /// The action to take when the buffer becomes full.
        public let whenFull: Publishers.BufferingStrategy<Failure>

        /// Creates a publisher that buffers elements received from an upstream publisher.
        /// - Parameters:
        ///   - upstream: The publisher from which this publisher receives elements.
        ///   - size: The maximum number of elements to store; traps when negative.
        ///   - prefetch: The strategy for initially populating the buffer.
        ///   - whenFull: The action to take when the buffer becomes full.
        @inlinable
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            precondition(size >= 0, "Buffer size must not be negative: buffer(size: \(size))")
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        /// Attaches `subscriber` through a subscription described as "Buffer".
        /// - Parameter subscriber: The subscriber to attach.
        @inlinable
        public func receive<S: Subscriber>(subscriber: consuming S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

extension Publishers.Buffer {
    /// The subscription: a ``BufferState`` under a lock, and the drain loop that performs it.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: Subscriber, Subscription, SpecializedControl,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
        @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        @usableFromInline typealias Input = Output
        @usableFromInline typealias State = BufferState<Downstream>

        @usableFromInline
        internal let state: Locked<State>

        /// The subscriber, held for the subscription's whole life as Combine's buffer holds it
        /// (its lifecycle tests record the subscriber outliving the completion); the state
        /// machine's own reference, which says whether the stream is live, goes at the end.
        @usableFromInline
        internal let subscriber: Downstream

        /// `request` and `cancel` run specialised through it (see ``ControlSignal``): a subscriber
        /// reading the buffer request by request drains it from there.
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        @inlinable
        internal init(
            downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            subscriber = downstream
            control = Inner.controlEntry
            state = Locked(State(downstream: downstream, size: size, prefetch: prefetch, whenFull: whenFull))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        /// Asks the upstream for its first demand, then hands the downstream its subscription,
        /// in Combine's order, and delivers whatever the downstream asked for meanwhile.
        @inlinable
        internal func receive(subscription: any Subscription) {
            guard let initial = state.withLock({ $0.receive(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            if initial > 0 {
                subscription.request(initial)
            }
            guard let downstream = state.withLock({ $0.downstream }) else { return }
            downstream.receive(subscription: self)
            run(state.withLock { $0.handedOver() }).request()
        }

        @inlinable
        internal func receive(_ input: Output) -> Subscribers.Demand {
            let arrival = state.withLock { $0.receive(input) }
            switch consume arrival {
            case .kept:
                return .none
            case .drain(let step):
                // On the upstream's own path: what it is owed goes back as returned demand.
                return run(consume step).demand()
            case .overflow(let makeError):
                let error = makeError()
                state.withLock { $0.overflowed(error) }?.cancel()
                return .none
            }
        }

        @inlinable
        internal func receive(completion: Subscribers.Completion<Failure>) {
            let (released, step) = state.withLock { $0.receive(completion: completion) }
            _ = released
            if let step {
                // As in Combine, a drain the completion starts asks the upstream for nothing.
                _ = run(step)
            }
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
            // Moved out of the optional, not bound from it: `if let` copied the step and destroyed
            // both, through their value witnesses, on every request.
            let step = state.withLock { $0.request(demand) }
            switch consume step {
            case .some(let first):
                run(consume first).request()
            case .none:
                return
            }
        }

        @inlinable
        internal func cancelNow() {
            guard let released = state.withLock({ $0.cancel() }) else { return }
            if case .subscribed(let upstream) = released.upstream {
                upstream.cancel()
            }
        }

        /// The drain loop: performs steps until the machine goes idle.
        /// - Returns: What the upstream is owed: asked of it when this loop did not run on the
        ///   upstream's own path, returned to it when it did.
        @inlinable
        internal func run(_ first: consuming State.Step) -> BufferRefill {
            var step = first
            while true {
                // Moved into the switch, not read in place, which copied each step and destroyed
                // it after, through the step's value witnesses (Docs/FastWithoutTheSpecialiser.md).
                switch consume step {
                case .deliver(let value, let downstream):
                    let more = downstream.receive(value)
                    step = state.withLock { $0.delivered(more) }
                case .complete(let completion, let released):
                    released.downstream.receive(completion: completion)
                    step = state.withLock { $0.next() }
                case .idle(let refill):
                    return refill
                }
            }
        }

        @usableFromInline
        internal var description: String { "Buffer" }

        @usableFromInline
        internal var customMirror: Mirror {
            let (values, upstream, demand, terminal) = state.withLock {
                ($0.storage.elements, $0.upstream, $0.demand, $0.pending)
            }
            return Mirror(
                self,
                children: [
                    ("values", values),
                    ("state", upstream),
                    ("downstreamDemand", demand),
                    ("terminal", terminal as Any),
                ])
        }

        @usableFromInline
        internal var playgroundDescription: Any { description }
    }
}
