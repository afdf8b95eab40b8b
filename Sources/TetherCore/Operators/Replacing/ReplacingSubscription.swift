import Synchronization

/// The subscription behind ``Publishers/ReplaceEmpty`` and ``Publishers/ReplaceError``: it
/// relays values and demand unchanged, and at the upstream's completion either forwards a
/// completion or substitutes `output` followed by `.finished`.
///
/// The substitute is a value, so it needs demand: it goes out at once if the downstream has
/// demand outstanding, and otherwise waits for the next request. To know that, the relay counts
/// the demand requested minus the values delivered plus the demand those deliveries returned;
/// the count sits in its own small mutex so the per-value path never touches the generic `link`.
/// As in Combine, the relay holds its downstream for its whole life (OpenCombine's suite records
/// Combine keeping the subscriber after a cancel and after a failure); the hand-off only stops
/// deliveries. `replaceError` traps on a value that comes with no demand outstanding, as in
/// Combine; `replaceEmpty` asks its upstream for `.unlimited` once the downstream has its
/// subscription, as Combine's does.
///
/// As in Combine, a value (answered with `.none`), a completion, a request or a `cancel` that
/// comes before the upstream's subscription is ignored.
///
/// `@unchecked Sendable`: its link, demand and cancel flag are under a lock or atomic; `sawValue`
/// is read and written on the upstream's serial signal path only; the rest is immutable.
@usableFromInline
internal final class ReplacingSubscription<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
    @unchecked Sendable
{
    @usableFromInline
    internal typealias Input = Downstream.Input

    @usableFromInline
    internal typealias Failure = UpstreamFailure

    /// What the relay does at the upstream's completion.
    @usableFromInline
    internal enum Ending {
        /// Publish `output`, then `.finished`.
        case substitute
        /// Pass this completion on.
        case forward(Subscribers.Completion<Downstream.Failure>)
    }

    /// Decides the ending from the upstream's completion and whether any value went through.
    @usableFromInline
    internal typealias Decide = (Subscribers.Completion<UpstreamFailure>, _ sawValue: Bool) -> Ending

    @usableFromInline
    internal enum Link {
        case awaitingSubscription
        case subscribed(any Subscription)
        /// The upstream is done; the substitute waits for the downstream's next request.
        case parked(Downstream)
        case terminal
    }

    @usableFromInline
    internal enum Outcome {
        case nothing
        case parked
        case substitute(Downstream)
        case forward(Downstream, Subscribers.Completion<Downstream.Failure>)
    }

    @usableFromInline let link = Locked(Link.awaitingSubscription)
    @usableFromInline let handOff = ReleaseHandOff()
    /// Demand requested and not yet used up by a value.
    @usableFromInline let outstanding = Mutex(Subscribers.Demand.none)
    /// Set by `cancel`; read between the substitute and `.finished`, so a downstream that
    /// cancels from inside `receive(_:)` gets nothing after its `cancel()` returns.
    @usableFromInline let cancelled = Atomic<Bool>(false)
    @usableFromInline let downstream: Downstream
    /// Serial path only.
    @usableFromInline var sawValue = false
    @usableFromInline let output: Input
    @usableFromInline let decide: Decide
    @usableFromInline let name: StaticString
    /// `replaceError`: a value with no demand outstanding traps.
    @usableFromInline let trapsWithoutDemand: Bool
    /// `replaceEmpty`: once the downstream has its subscription, the upstream is asked for
    /// `.unlimited`, whatever the downstream requests, as in Combine.
    @usableFromInline let requestsUnlimited: Bool

    @inlinable
    internal init(
        name: StaticString, downstream: Downstream, output: Input, trapsWithoutDemand: Bool = false,
        requestsUnlimited: Bool = false, decide: @escaping Decide
    ) {
        self.name = name
        self.trapsWithoutDemand = trapsWithoutDemand
        self.requestsUnlimited = requestsUnlimited
        self.downstream = downstream
        self.output = output
        self.decide = decide
        Ledger.enter(self)
    }

    deinit {
        Ledger.leave(self)
    }

    @inlinable
    internal func receive(subscription: any Subscription) {
        let accepted = link.withLock { link -> Bool in
            guard case .awaitingSubscription = link else { return false }
            link = .subscribed(subscription)
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        handOff.open()
        downstream.receive(subscription: self)
        _ = handOff.leave()
        // As Combine's does, even when the downstream cancelled from inside `receive`.
        if requestsUnlimited { subscription.request(.unlimited) }
    }

    @inlinable
    internal func receive(_ input: Input) -> Subscribers.Demand {
        guard handOff.enterIfSubscribed() else { return .none }
        sawValue = true
        let traps = trapsWithoutDemand
        outstanding.withLock { outstanding in
            if traps {
                precondition(
                    outstanding > 0, "A publisher must not send a value without demand: \(name) had none outstanding")
            }
            outstanding -= 1
        }
        let more = downstream.receive(input)
        if more > 0 {
            outstanding.withLock { $0 += more }
        }
        if handOff.leave() {
            return .none
        }
        return more
    }

    @inlinable
    internal func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        let outcome = link.withLock { link -> Outcome in
            switch link {
            case .awaitingSubscription, .parked, .terminal:
                return .nothing
            case .subscribed:
                switch decide(completion, sawValue) {
                case .forward(let completion):
                    link = .terminal
                    return .forward(downstream, completion)
                case .substitute:
                    // A request adds to `outstanding` before it looks at `link`, so either this
                    // sees its demand or it sees the parked subscriber.
                    if outstanding.withLock({ $0 > 0 }) {
                        link = .terminal
                        return .substitute(downstream)
                    }
                    link = .parked(downstream)
                    return .parked
                }
            }
        }
        if case .nothing = outcome { return }
        handOff.stopFromSerialPath()
        switch outcome {
        case .nothing, .parked:
            return
        case .substitute(let downstream):
            substitute(to: downstream)
        case .forward(let downstream, let completion):
            downstream.receive(completion: completion)
        }
    }

    @inlinable
    internal func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "Demand must not be zero: \(name) was asked for .none")
        outstanding.withLock { $0 += demand }
        let (upstream, parked) = link.withLock { link -> ((any Subscription)?, Downstream?) in
            switch link {
            case .subscribed(let upstream):
                return (upstream, nil)
            case .parked(let downstream):
                link = .terminal
                return (nil, downstream)
            case .awaitingSubscription, .terminal:
                return (nil, nil)
            }
        }
        upstream?.request(demand)
        if let parked {
            substitute(to: parked)
        }
    }

    /// Sends `output`, then `.finished` unless the downstream cancelled meanwhile.
    @usableFromInline
    internal func substitute(to downstream: Downstream) {
        _ = downstream.receive(output)
        if cancelled.load(ordering: .acquiring) { return }
        downstream.receive(completion: .finished)
    }

    @inlinable
    internal func cancel() {
        let previous = link.withLock { link -> Link in
            if case .awaitingSubscription = link { return link }
            cancelled.store(true, ordering: .releasing)
            defer { link = .terminal }
            return link
        }
        guard case .subscribed(let upstream) = previous else { return }
        _ = handOff.stopFromOutside()
        upstream.cancel()
    }

    @usableFromInline
    internal var description: String { "\(name)" }

    /// No children: the downstream belongs to the serial path.
    @usableFromInline
    internal var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline
    internal var playgroundDescription: Any { description }
}
