import TetherCore

/// The subscription of ``Publishers/AsyncMap`` and ``Publishers/TryAsyncMap``: it runs one task
/// per upstream value and delivers the results in input order, driven by ``AsyncMapState``.
///
/// Delivery happens on whichever thread made something deliverable (a finishing transform's
/// task, or the thread that requested); only one thread delivers at a time and requests from
/// inside `receive(_:)` never recurse.
@usableFromInline
internal final class AsyncMapSubscription<Input: Sendable, Output: Sendable, UpstreamFailure: Error, Failure: Error>:
    Subscriber, Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    @usableFromInline
    internal typealias Transform = @Sendable (Input) async -> Result<Output, Failure>

    @usableFromInline
    internal typealias Machine = AsyncMapState<Output, Failure, Task<Void, Never>>

    @usableFromInline
    internal struct Guarded {
        @usableFromInline var machine: Machine
        /// `nil` until the subscription arrives, and once the stream is over.
        @usableFromInline var upstream: (any Subscription)?
        /// `nil` once the stream is over.
        @usableFromInline var downstream: AnySubscriber<Output, Failure>?
    }

    @usableFromInline
    internal let guarded: Locked<Guarded>

    @usableFromInline
    internal let transform: Transform

    @usableFromInline
    internal let mapFailure: @Sendable (UpstreamFailure) -> Failure

    @usableFromInline
    internal let name: String

    @usableFromInline
    internal init(
        name: String, maxConcurrent: Int, downstream: AnySubscriber<Output, Failure>,
        transform: @escaping Transform, mapFailure: @escaping @Sendable (UpstreamFailure) -> Failure
    ) {
        self.name = name
        self.transform = transform
        self.mapFailure = mapFailure
        guarded = Locked(Guarded(machine: Machine(maxConcurrent: maxConcurrent), downstream: downstream))
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    // MARK: Upstream side

    @usableFromInline
    internal func receive(subscription: any Subscription) {
        let downstream = guarded.withLock { guarded -> AnySubscriber<Output, Failure>? in
            guard guarded.upstream == nil, let downstream = guarded.downstream else { return nil }
            guarded.upstream = subscription
            return downstream
        }
        guard let downstream else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    @usableFromInline
    internal func receive(_ input: Input) -> Subscribers.Demand {
        guard let id = guarded.withLock({ $0.machine.receive() }) else { return .none }
        let transform = self.transform
        let task = Task {
            let result = await transform(input)
            self.complete(id, with: result)
        }
        let kept = guarded.withLock { $0.machine.attach(task, to: id) }
        if !kept { task.cancel() }
        return .none
    }

    @usableFromInline
    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guarded.withLock { guarded in
            guarded.upstream = nil
            switch completion {
            case .finished: guarded.machine.finish()
            case .failure(let error): guarded.machine.fail(mapFailure(error))
            }
        }
        deliver()
    }

    @usableFromInline
    internal func complete(_ id: Int, with result: Result<Output, Failure>) {
        if guarded.withLock({ $0.machine.complete(id, with: result) }) {
            deliver()
        }
    }

    // MARK: Downstream side

    @usableFromInline
    internal func request(_ demand: Subscribers.Demand) {
        let (upstream, more) = guarded.withLock { guarded -> ((any Subscription)?, Int) in
            (guarded.upstream, guarded.machine.request(demand))
        }
        if more > 0 { upstream?.request(.max(more)) }
        deliver()
    }

    @usableFromInline
    internal func cancel() {
        let (tasks, upstream, downstream) = guarded.withLock {
            guarded -> ([Task<Void, Never>], (any Subscription)?, AnySubscriber<Output, Failure>?) in
            defer {
                guarded.upstream = nil
                guarded.downstream = nil
            }
            return (guarded.machine.cancel(), guarded.upstream, guarded.downstream)
        }
        _ = downstream
        for task in tasks { task.cancel() }
        upstream?.cancel()
    }

    /// Delivers whatever is deliverable, unless another thread is already doing so.
    @usableFromInline
    internal func deliver() {
        guard
            var (step, downstream) = guarded.withLock({ guarded in
                guarded.machine.startDelivery().map { ($0, guarded.downstream) }
            })
        else { return }
        while true {
            switch step {
            case .idle:
                return
            case .value(let output):
                let more = downstream?.receive(output) ?? .none
                let (next, upstream, ask) = guarded.withLock {
                    guarded -> (Machine.Delivery, (any Subscription)?, Int) in
                    let ask = guarded.machine.delivered(returning: more)
                    return (guarded.machine.nextDelivery(), guarded.upstream, ask)
                }
                if ask > 0 { upstream?.request(.max(ask)) }
                step = next
            case .finished:
                finish(with: .finished, cancelling: [])
                return
            case .failure(let failure, let tasks):
                finish(with: .failure(failure), cancelling: tasks)
                return
            }
            downstream = guarded.withLock { $0.downstream }
        }
    }

    @usableFromInline
    internal func finish(with completion: Subscribers.Completion<Failure>, cancelling tasks: [Task<Void, Never>]) {
        let (upstream, downstream) = guarded.withLock {
            guarded -> ((any Subscription)?, AnySubscriber<Output, Failure>?) in
            defer {
                guarded.upstream = nil
                guarded.downstream = nil
            }
            return (guarded.upstream, guarded.downstream)
        }
        for task in tasks { task.cancel() }
        upstream?.cancel()
        downstream?.receive(completion: completion)
    }

    @usableFromInline
    internal var description: String { name }

    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
