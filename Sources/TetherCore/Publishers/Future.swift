import Synchronization

/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure passed to ``init(_:)-((Future<Output,Failure>.Promise)->Void)`` runs at once,
/// exactly once, and receives a ``Promise``.
/// The first call of the promise settles the future; later calls are ignored. Every subscriber,
/// whether it subscribed before or after the promise was fulfilled, then gets the outcome: a
/// success value as soon as it has demand (followed by `.finished`), a failure at once. Delivery
/// happens on the thread that fulfils the promise, or on the thread that subscribes or requests
/// when the outcome is already known. The promise keeps the future alive until it is called or
/// released, so a future nobody else holds still reaches its subscribers; as in Combine, a
/// subscription waiting for the outcome keeps it alive too, until it is cancelled or sent the
/// outcome.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// A type that represents a closure to invoke in the future, when an element or error is
    /// available.
    ///
    /// The promise closure receives one parameter: a `Result` that contains either a single
    /// element published by a ``Future``, or an error. It is `@Sendable` so that work finishing
    /// on another thread or in a `Task` can fulfil it.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    @usableFromInline
    internal struct State {
        /// `nil` until the promise is first called.
        @usableFromInline var outcome: Result<Output, Failure>?
        /// Subscriptions waiting for the outcome; emptied when it arrives.
        @usableFromInline var waiting = FutureWaiting<Output, Failure>()

        @inlinable
        init() {}
    }

    /// Guards `state`. Beside it rather than around it: the future's `deinit` runs unspecialised
    /// and looks up the type of every stored property built from its generic parameters, and a
    /// `Locked<State>` took four lookups (the lock's layers and the state), where the state alone
    /// takes one (its `deinit` and deallocation: about 1,840 instructions a future, 720 now).
    @usableFromInline
    internal let lock = Locked(())

    /// Under `lock`. Set in the initialiser rather than by a default value: a default is compiled
    /// into a function of its own, unspecialised, which looked its type up each time a future was
    /// made.
    @usableFromInline
    @exclusivity(unchecked)
    internal var state: State

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    ///
    /// - Parameter attemptToFulfill: A closure, run immediately on the calling thread, that
    ///   receives the ``Promise`` to call with the outcome, now or later from any thread.
    @inlinable
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        state = State()
        attemptToFulfill { [self] result in
            self.fulfil(result)
        }
    }

    /// Attaches `subscriber`; it receives the outcome as soon as it is known and demanded.
    ///
    /// Inlinable, with the subscription and its state, so that a future made where its types are
    /// known (each inner of a `flatMap`, say) is subscribed and delivers through specialised code:
    /// compiled here once, generically, subscribing and fulfilling one looked its generic types up
    /// in the run time about a hundred times (45,000 instructions for each value of a
    /// `flatMap { Future { … } }`).
    /// - Parameter subscriber: The subscriber to attach.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = Inner(downstream: subscriber, future: self)
        // Registering only after the subscriber has its subscription: an outcome arriving in
        // between must not reach a subscriber that has not been subscribed yet.
        subscriber.receive(subscription: conduit)
        let known = lock.withLock { _ -> Result<Output, Failure>? in
            if let outcome = state.outcome { return outcome }
            state.waiting.append(conduit)
            return nil
        }
        if let known {
            conduit.settleNow(known)
        } else if conduit.isReleased {
            // Cancelled while we registered: the cancel may have looked for it too early.
            remove(conduit)
        }
    }

    @inlinable
    internal func fulfil(_ result: Result<Output, Failure>) {
        var waiting = FutureWaiting<Output, Failure>()
        let settled = lock.withLock { _ -> Bool in
            guard state.outcome == nil else { return false }
            state.outcome = result
            // Moved out rather than copied and replaced: no retain and release of what it holds.
            swap(&waiting, &state.waiting)
            return true
        }
        if settled {
            waiting.settle(result)
        }
    }

    @inlinable
    internal func remove(_ conduit: AnyObject) {
        let removed = lock.withLock { _ in state.waiting.remove(conduit) }
        _ = removed
    }
}

extension Future {
    /// One subscriber's subscription: it waits for both the outcome and (for a value) demand, as
    /// its ``FutureState`` decides under the lock; the delivery is made once the lock is released.
    ///
    /// What reaches it from outside comes through a protocol: `request` and `cancel` from its
    /// subscriber (`any Subscription`), the outcome of a future fulfilled later from the future's
    /// list (`any FutureConduit`). A witness runs the unspecialised body, and the delivery it
    /// makes would run the whole chain below unspecialised; so each forwards to an entry made in
    /// the initialiser, where the types are known (see ``ControlSignal``).
    ///
    /// `@unchecked Sendable`: its state lives under its lock and `cancelled` is atomic.
    @usableFromInline
    internal final class Inner<Downstream: Subscriber>: SubscriptionBase<FutureState<Downstream>>, FutureConduit,
        Subscription, SpecializedControl,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        /// Guards `state`, which lives in the base class so that this class's `deinit` looks no
        /// type up (see ``SubscriptionBase``).
        @usableFromInline
        internal let lock = Locked(())

        /// Set by `cancel`; checked between the value and the completion.
        @usableFromInline
        internal let cancelled = Atomic<Bool>(false)

        /// `request` and `cancel`, specialised.
        @usableFromInline
        internal let control: (AnyObject, ControlSignal) -> Void

        /// `settle`, specialised.
        @usableFromInline
        internal let settleEntry: (AnyObject, Result<Output, Failure>) -> Void

        @inlinable
        init(downstream: Downstream, future: Future) {
            control = Inner.controlEntry
            settleEntry = { object, outcome in unsafeDowncast(object, to: Inner.self).settleNow(outcome) }
            super.init(state: FutureState(downstream: downstream, future: future))
            Ledger.enter(self)
        }

        deinit {
            Ledger.leave(self)
        }

        @inlinable
        var isReleased: Bool {
            lock.withLock { _ in state.isReleased }
        }

        @inlinable
        func settle(_ outcome: Result<Output, Failure>) {
            settleEntry(self, outcome)
        }

        @inlinable
        func settleNow(_ outcome: Result<Output, Failure>) {
            guard case .deliver(let downstream, let outcome) = lock.withLock({ _ in state.settle(outcome) }) else {
                return
            }
            deliver(outcome, to: downstream)
            lock.withLock { _ in state.settledDelivered() }
        }

        @inlinable
        func request(_ demand: Subscribers.Demand) {
            control(self, .request(demand))
        }

        @inlinable
        func cancel() {
            control(self, .cancel)
        }

        @inlinable
        func requestNow(_ demand: Subscribers.Demand) {
            precondition(
                demand > 0, "Demand must not be zero: the Future subscription was asked for .none")
            guard case .deliver(let downstream, let outcome) = lock.withLock({ _ in state.request() }) else { return }
            deliver(outcome, to: downstream)
        }

        @inlinable
        func cancelNow() {
            cancelled.store(true, ordering: .releasing)
            let (released, future) = lock.withLock { _ in state.cancel() }
            _ = released
            future?.remove(self)
        }

        @inlinable
        internal func deliver(_ outcome: Result<Output, Failure>, to downstream: Downstream) {
            switch outcome {
            case .success(let value):
                _ = downstream.receive(value)
                // A subscriber that cancelled from inside `receive(_:)` gets no completion.
                if !cancelled.load(ordering: .acquiring) {
                    downstream.receive(completion: .finished)
                }
            case .failure(let error):
                downstream.receive(completion: .failure(error))
            }
        }

        @usableFromInline
        var description: String { "Future" }

        /// As Combine's: the future (as `parent` and again as `subject`), the subscriber until
        /// it is sent the outcome, and whether it has asked for anything.
        @usableFromInline
        var customMirror: Mirror {
            let (future, downstream, demanded) = lock.withLock { _ in (state.future, state.downstream, state.demanded) }
            return Mirror(
                self,
                children: [
                    "parent": future as Any,
                    "downstream": downstream as Any,
                    "hasAnyDemand": demanded,
                    "subject": future as Any,
                ])
        }

        @usableFromInline
        var playgroundDescription: Any { description }
    }
}

/// What a future knows of each subscription waiting for its outcome.
@usableFromInline
internal protocol FutureConduit<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    /// Whether the subscription has let go of its subscriber (delivered or cancelled).
    var isReleased: Bool { get }

    /// Hands the subscription the outcome; it delivers once it also has demand.
    func settle(_ outcome: Result<Output, Failure>)
}
