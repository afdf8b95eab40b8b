/// What ``CombiningSubscription`` needs of a zip's or combine-latest's state machine: one machine per
/// family serves every arity, over upstreams indexed by position, its values held typed in
/// ``Slots``. Every method runs under the storage's lock and calls nothing (a `put` it is handed
/// only stores a value in the slots); the outcome is performed after the lock is released.
///
/// An event that can start a delivery is handed `output`, memory the caller provides for one
/// output, uninitialised. The machine initialises it exactly when the step it returns is
/// `.deliver`, and the caller moves the output out to deliver it. So the output goes from the
/// slots to the downstream without an optional or a tuple around it, types that unspecialised
/// code would look up in the run time on every value (Docs/FastWithoutTheSpecialiser.md,
/// "Optionals as generic arguments, and outputs put in place").
///
/// The families differ in what a value, a completion and the next output are; attaching,
/// demand, the drainer's hand-offs and cancelling are shared, in the extension below.
@usableFromInline
package protocol CombiningState {
    associatedtype Slots: CombiningSlots

    /// The family's name, as subscriptions describe themselves ("Zip", "CombineLatest").
    static var name: StaticString { get }

    /// Whether a value an upstream sends from inside the downstream's `receive(_:)` is treated
    /// apart (``receiveFromDelivery(_:into:_:)``). When it is not, the subscription does not keep
    /// track of the delivering thread at all, and every value goes through
    /// ``receive(_:into:_:)``.
    static var tellsFedBackValuesApart: Bool { get }

    init(upstreams: Int)

    var upstreams: [CombiningUpstream] { get set }
    /// The subscriptions of the upstreams still live, in order: where demand is forwarded.
    /// Rebuilt when one arrives or ends, so that forwarding demand (per value, for a subscriber
    /// that asks as it goes) shares this array instead of building one.
    var live: [any Subscription] { get set }
    var phase: CombiningPhase { get set }
    /// What the downstream has asked for and not yet received.
    var demand: Subscribers.Demand { get set }
    /// Everything the downstream has asked for; an upstream that subscribes late is asked for it.
    var forwarded: Subscribers.Demand { get set }
    /// A thread is calling the downstream. Initially: the subscription is being handed over.
    var draining: Bool { get set }
    /// The upstream whose `receive(_:)` the drainer is running in, when the family hands demand
    /// back that way (zip, as Combine's does): what the downstream asks for meanwhile is
    /// returned to that upstream from `receive(_:)` and requested from the others. `nil` when
    /// the drainer came from anywhere else, and always for combine-latest.
    var sender: Int? { get set }
    /// Demand owed to ``sender``, returned from its `receive(_:)` when the drainer's turn ends.
    var owed: Subscribers.Demand { get set }

    /// Upstream `index` sent a value; `put` stores it in the slots, and is called at most once
    /// (not at all when the value is dropped).
    mutating func receive(
        _ index: Int, into output: UnsafeMutablePointer<Slots.Output>, _ put: (inout Slots) -> Void
    ) -> CombiningOutcome

    /// As ``receive(_:into:_:)``, for a value that upstream `index` sends from inside the
    /// downstream's `receive(_:)`, on the thread delivering it (a subscriber that feeds an
    /// upstream back); called only when ``tellsFedBackValuesApart``.
    mutating func receiveFromDelivery(
        _ index: Int, into output: UnsafeMutablePointer<Slots.Output>, _ put: (inout Slots) -> Void
    ) -> CombiningOutcome

    /// Upstream `index` completed. Never delivers: a completion that ends the stream is the step,
    /// or waits for the drainer.
    mutating func complete(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> CombiningOutcome

    /// An output can go downstream now (a zip's tuple is ready; a combination waits for the
    /// drainer).
    var ready: Bool { get }

    /// The next output, if one is ready (`.deliver`, the output put in `output`), or the
    /// completion once it is due; `.idle` otherwise.
    mutating func next(_ outcome: inout CombiningOutcome, into output: UnsafeMutablePointer<Slots.Output>)
        -> CombiningStep

    /// Lets go of every value held: the stream is over.
    mutating func dropValues()
}

@usableFromInline
package enum CombiningPhase {
    case running
    /// The completion is decided; the drainer delivers it once it is done with what is owed.
    case completing(Subscribers.Completion<any Error>)
    /// Completed or cancelled: nothing more happens.
    case over

    /// Whether a value or the completion of upstream `index` of `upstreams` counts: `false` when
    /// it is to be ignored.
    ///
    /// Asked of the phase, not of the machine: a machine's own method that calls a method of the
    /// ``CombiningState`` extension hands it the machine's conformance, which unspecialised code
    /// looks up in the run time on every value. The upstream's status is read in place, and only
    /// while the stream runs.
    @inlinable
    package func accepts(_ upstreams: [CombiningUpstream], _ index: Int) -> Bool {
        guard case .running = self else { return false }
        return upstreams[index].status.accepts
    }
}

/// What a zip's or combine-latest's drainer does next.
@usableFromInline
package enum CombiningStep {
    /// Stop draining (or, for a caller that is not draining, nothing to deliver).
    case idle
    /// Stop draining: the stream was cancelled meanwhile.
    case release
    /// Deliver the output the machine put where its caller said (see ``CombiningState``).
    case deliver
    /// Complete the downstream.
    case complete(Subscribers.Completion<any Error>)
}

/// Calls to make outside the lock, then the next step: what every event of a zip's or
/// combine-latest's state machine returns.
///
/// Not generic: a `.deliver` step's output is put where the caller said, not carried here. A
/// generic outcome, made and dropped for every value, was destroyed through the run time's value
/// witnesses, which look its type up by name and compute its layout
/// (Docs/FastWithoutTheSpecialiser.md, "Copies the compiler makes through value witnesses").
@usableFromInline
package struct CombiningOutcome {
    /// Upstreams to ask for ``demand``. This and ``cancel`` are `nil` rather than empty when
    /// there are none, as in most outcomes: an empty array still costs a retain and a release
    /// wherever an outcome is copied.
    @usableFromInline package var request: [any Subscription]?
    @usableFromInline package var demand = Subscribers.Demand.none
    /// The position in ``request`` of the upstream not to ask (the sender, which is owed the
    /// demand instead), or -1.
    @usableFromInline package var skip = -1
    /// Demand to return from the sender's `receive(_:)`: the drainer's turn ended.
    @usableFromInline package var returned = Subscribers.Demand.none
    /// Upstreams to cancel.
    @usableFromInline package var cancel: [any Subscription]?
    @usableFromInline package var step = CombiningStep.idle

    @inlinable
    package init(step: CombiningStep = .idle) {
        self.step = step
    }
}

extension CombiningState {
    /// Upstream `index` handed over its subscription.
    /// - Returns: The demand to request from it (`.none`: nothing yet), or `nil` when the
    ///   subscription must be cancelled (a second subscription, or the stream has ended).
    @inlinable
    package mutating func attach(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand? {
        guard case .running = phase, upstreams[index].attach(subscription) else { return nil }
        live = upstreams.subscriptions
        return forwarded
    }

    /// The downstream asked for more (never `.none`: the storage traps on that first).
    @inlinable
    package mutating func request(_ more: Subscribers.Demand, into output: UnsafeMutablePointer<Slots.Output>)
        -> CombiningOutcome
    {
        if case .over = phase { return CombiningOutcome() }
        var outcome = CombiningOutcome()
        if more > 0 { add(more, to: &outcome) }
        guard !draining else { return outcome }
        let step = next(&outcome, into: output)
        outcome.step = step
        switch step {
        case .deliver, .complete:
            draining = true
        case .idle, .release:
            break
        }
        return outcome
    }

    /// The drainer's call into the downstream returned `more`: what it does next.
    @inlinable
    package mutating func delivered(_ more: Subscribers.Demand, into output: UnsafeMutablePointer<Slots.Output>)
        -> CombiningOutcome
    {
        precondition(draining, "\(Self.name): only the drainer may report a delivery")
        if case .over = phase {
            draining = false
            sender = nil
            owed = .none
            return CombiningOutcome(step: .release)
        }
        var outcome = CombiningOutcome()
        if more > 0 { add(more, to: &outcome) }
        let step = next(&outcome, into: output)
        outcome.step = step
        switch step {
        case .deliver:
            break
        case .complete:
            sender = nil
            owed = .none
        case .idle, .release:
            draining = false
            sender = nil
            outcome.returned = owed
            owed = .none
        }
        return outcome
    }

    /// The drainer's call into the downstream returned `more`: whether that ends its turn, with
    /// nothing to ask for or hand back, nothing ready and no completion due, as on the usual
    /// path. When it does not, nothing has changed, and ``delivered(_:into:)`` says what comes
    /// next.
    @inlinable
    package mutating func settle(_ more: Subscribers.Demand) -> Bool {
        guard more == .none, owed == .none, case .running = phase, !ready else { return false }
        draining = false
        sender = nil
        return true
    }

    /// The downstream cancelled.
    /// - Returns: The upstreams to cancel, and whether nobody is draining (otherwise the drainer
    ///   learns of the cancel from its next step, `.release`).
    @inlinable
    package mutating func cancel() -> (cancel: [any Subscription], release: Bool) {
        if case .over = phase { return ([], false) }
        phase = .over
        dropValues()
        return (releaseChildren(), !draining)
    }

    /// Counts `more` demand (more than none) and forwards it to every live upstream, but the
    /// ``sender``, which is owed it instead.
    @inlinable
    package mutating func add(_ more: Subscribers.Demand, to outcome: inout CombiningOutcome) {
        demand += more
        forwarded += more
        guard case .running = phase else { return }
        if let sender {
            owed += more
            // Its position among the live subscriptions: those of the upstreams before it.
            outcome.skip = upstreams.subscribedCount(before: sender)
        }
        if !live.isEmpty { outcome.request = live }
        outcome.demand = more
    }

    /// Upstream `index` completed: the machine forgets its subscription.
    @inlinable
    package mutating func forget(_ index: Int) {
        upstreams[index].end()
        live = upstreams.subscriptions
    }

    /// Every subscription still held, which the machine forgets.
    @inlinable
    package mutating func releaseChildren() -> [any Subscription] {
        for index in upstreams.indices { upstreams[index].end() }
        defer { live = [] }
        return live
    }
}
