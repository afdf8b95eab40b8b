@testable import TetherCore
import TetherTesting
import XCTest

/// The flattening machine's quick transitions (`settle`, `settleImmediate`, `finishInnerQuietly`,
/// `requestQuietly`, `upstreamFinishedQuietly`), each against the full
/// transition it stands for, on random event sequences driven as `FlattenSubscription` drives them:
/// where a quick transition is taken, both leave the same state and ask for the same calls; where
/// it is declined, it changed nothing.
final class FlattenStateQuickPathTests: TetherTestCase {
    func testQuickTransitionsAgreeWithTheFullOnesOnRandomEventSequences() {
        let bounds: [Subscribers.Demand] = [.unlimited, .max(1), .max(3)]
        var outcomes: [String: Int] = [:]
        for seed in 0..<UInt64(4_000) {
            let maxPublishers = bounds[Int(seed % 3)]
            var driver = FlattenDriver(maxPublishers: maxPublishers, seed: seed)
            driver.run(steps: 80)
            if let failure = driver.failure {
                return XCTFail(
                    "seed \(seed), maxPublishers \(maxPublishers): \(failure)\n" + driver.log.joined(separator: "\n"))
            }
            outcomes.merge(driver.outcomes, uniquingKeysWith: +)
        }
        // Each quick transition was taken and declined many times, or the comparison proves little.
        for name in ["settle", "settleImmediate", "finishInnerQuietly", "requestQuietly"] {
            XCTAssertGreaterThan(outcomes["\(name) taken", default: 0], 100, name)
            XCTAssertGreaterThan(outcomes["\(name) declined", default: 0], 100, name)
        }
        XCTAssertGreaterThan(outcomes["upstreamFinishedQuietly taken", default: 0], 100)
        XCTAssertGreaterThan(outcomes["upstreamFinishedQuietly declined", default: 0], 10)
        // The states only reentrance reaches were reached too.
        XCTAssertGreaterThan(outcomes["value queued with its demand", default: 0], 100)
        XCTAssertGreaterThan(outcomes["value after the completion", default: 0], 10)
    }
}

/// Plays upstream, inner publishers and downstream around one ``FlattenState``, one random event
/// at a time, honouring the demand each was given, and cross-checks every quick transition.
private struct FlattenDriver {
    typealias Machine = FlattenState<Int, TestError>

    /// Who holds the machine's drain token, that is, which call into the downstream is under way.
    enum Holder: Equatable {
        case nobody
        /// The downstream is taking its subscription (the machine starts so).
        case handoff
        /// An inner's value, delivered by the inner's own call.
        case value
        /// A `Just`'s value, taken without a subscription.
        case immediate
        /// A value of the drain loop; `immediateAfter`: the loop runs for an immediate value, whose
        /// inner finishes once the loop ends.
        case drain(immediateAfter: Bool)
        /// The downstream is receiving its completion.
        case completion
        /// The downstream was let go of: the token is never handed out again.
        case over
    }

    var machine: Machine
    var random: SeededGenerator
    var holder = Holder.handoff
    let upstream = RecordingSubscription()
    var upstreamDemand = Subscribers.Demand.none
    var upstreamSubscribed = false
    var upstreamDone = false
    var downstreamCancelled = false
    var started = false
    /// Inners reserved and not yet subscribed.
    var reserved: [Int] = []
    /// Inners subscribed and still running, with the demand they were given.
    var live: [Int: (subscription: RecordingSubscription, demand: Subscribers.Demand)] = [:]
    /// Inners that finished, failed or were cancelled, which may still send a late value.
    var gone: [Int] = []
    var nextValue = 0
    var failure: String?
    var outcomes: [String: Int] = [:]
    var log: [String] = []

    init(maxPublishers: Subscribers.Demand, seed: UInt64) {
        machine = Machine(maxPublishers: maxPublishers)
        random = SeededGenerator(seed: seed)
    }

    mutating func run(steps: Int) {
        for _ in 0..<steps where failure == nil {
            step()
            // Values paid for wait only for a holder of the token, who delivers them.
            if !machine.delivering, machine.paid != 0 { fail("the token is free with \(machine.paid) paid values") }
        }
    }

    private mutating func step() {
        var events: [(weight: Int, event: (inout FlattenDriver) -> Void)] = []
        if holder != .nobody, holder != .over { events.append((30, { $0.returnFromDownstream() })) }
        if !downstreamCancelled {
            events.append((10, { $0.request() }))
            events.append((1, { $0.cancel() }))
        }
        if started, !upstreamSubscribed { events.append((10, { $0.subscribeUpstream() })) }
        // Before its subscription, the upstream sends now and then anyway (Combine takes it).
        if started, !upstreamDone, upstreamDemand > 0 || !upstreamSubscribed {
            let weight = upstreamSubscribed ? 8 : 1
            events.append((weight, { $0.sendPublisher() }))
            events.append((weight, { $0.sendJust() }))
            events.append((2, { $0.finishUpstream() }))
            events.append((1, { $0.failUpstream() }))
        }
        if !gone.isEmpty { events.append((2, { $0.sendLateValue() })) }
        if !reserved.isEmpty { events.append((10, { $0.subscribeInner() })) }
        if live.values.contains(where: { $0.demand > 0 }) { events.append((20, { $0.sendInnerValue() })) }
        if !live.isEmpty {
            events.append((8, { $0.finishInner() }))
            events.append((1, { $0.failInner() }))
        }
        guard !events.isEmpty else { return }
        var pick = Int.random(in: 0..<events.map(\.weight).reduce(0, +), using: &random)
        for (weight, event) in events {
            if pick < weight { return event(&self) }
            pick -= weight
        }
    }

    // MARK: Events

    private mutating func returnFromDownstream() {
        let more = randomDemand()
        let returning = holder
        holder = .nobody
        log.append("downstream returns \(more) from \(returning)")
        switch returning {
        case .completion:
            let effects = machine.delivered(.none)
            if case .deliver = effects.drain { outcomes["value after the completion", default: 0] += 1 }
            perform(effects)
        case .handoff, .value, .drain:
            if returning == .handoff { started = true }
            var quick = machine
            let settled = quick.settle(more)
            var full = machine
            let effects = full.delivered(more)
            let immediateAfter = returning == .drain(immediateAfter: true)
            if settled {
                agree("settle", quick, full, calls(effects), "cancels [] request nil drain idle")
                machine = quick
                if immediateAfter { perform(machine.immediateFinished()) }
            } else {
                declined("settle", quick)
                machine = full
                perform(effects, immediateAfter: immediateAfter)
            }
        case .immediate:
            var quick = machine
            let settlement = quick.settleImmediate(more)
            var full = machine
            let effects = full.delivered(more)
            if settlement.isSettled {
                var finished = full
                let finishing = finished.immediateFinished()
                if calls(effects) != "cancels [] request nil drain idle" {
                    return fail("settleImmediate was taken where delivered(\(more)) asks for \(calls(effects))")
                }
                agree("settleImmediate", quick, finished, calls(finishing), calls(settlement))
                machine = quick
                perform(settlement)
            } else {
                declined("settleImmediate", quick)
                machine = full
                perform(effects, immediateAfter: true)
            }
        case .nobody, .over:
            fail("returned from a downstream call nobody made")
        }
    }

    private mutating func request() {
        let more = randomDemand(atLeastOne: true)
        log.append("downstream requests \(more)")
        var quick = machine
        let settled = quick.requestQuietly(more)
        var full = machine
        let effects = full.request(more)
        if settled {
            agree("requestQuietly", quick, full, calls(effects), "cancels [] request nil drain idle")
            machine = quick
        } else {
            declined("requestQuietly", quick)
            machine = full
            perform(effects)
        }
    }

    private mutating func cancel() {
        log.append("downstream cancels")
        downstreamCancelled = true
        perform(machine.cancel())
    }

    private mutating func subscribeUpstream() {
        upstreamSubscribed = true
        let ask = machine.subscribed(upstream)
        log.append("upstream subscription arrives: asked \(String(describing: ask))")
        if let ask { upstreamDemand += ask }
    }

    private mutating func sendPublisher() {
        if upstreamDemand > 0 { upstreamDemand -= 1 }
        let index = machine.reserve()
        log.append("upstream sends a publisher: index \(String(describing: index))")
        if let index { reserved.append(index) }
    }

    private mutating func sendJust() {
        if upstreamDemand > 0 { upstreamDemand -= 1 }
        let value = takeValue()
        let verdict = machine.immediate(value)
        log.append("upstream sends Just(\(value)): \(verdict)")
        switch verdict {
        case .deliver: hand(.immediate)
        case .queued:
            outcomes["value queued with its demand", default: 0] += 1
            perform(machine.immediateFinished())
        case .drop, .buffered: break
        }
    }

    private mutating func finishUpstream() {
        upstreamDone = true
        log.append("upstream finishes")
        var quick = machine
        let outcome = quick.upstreamFinishedQuietly()
        var full = machine
        let effects = full.upstreamFinished()
        switch outcome {
        case nil:
            declined("upstreamFinishedQuietly", quick)
            machine = full
            perform(effects)
        case false?:
            agree("upstreamFinishedQuietly", quick, full, calls(effects), "cancels [] request nil drain idle")
            machine = quick
        case true?:
            let finishing = quick.upstreamFinishedQuietlyEffects
            agree("upstreamFinishedQuietly", quick, full, calls(effects), calls(finishing))
            machine = quick
            perform(finishing)
        }
    }

    private mutating func failUpstream() {
        upstreamDone = true
        log.append("upstream fails")
        forget(machine.upstreamFailed(TestError(id: 1)))
        perform(machine.innersCancelled())
    }

    private mutating func subscribeInner() {
        let index = reserved.remove(at: Int.random(in: 0..<reserved.count, using: &random))
        let subscription = RecordingSubscription()
        let ask = machine.innerSubscribed(index, subscription)
        log.append("inner \(index) subscribed: asked \(String(describing: ask))")
        if let ask { live[index] = (subscription, ask) } else { gone.append(index) }
    }

    private mutating func sendInnerValue() {
        let index = live.filter { $0.value.demand > 0 }.keys.sorted().randomElement(using: &random)!
        live[index]!.demand -= 1
        let value = takeValue()
        let verdict = machine.innerValue(index, value)
        log.append("inner \(index) sends \(value): \(verdict)")
        switch verdict {
        case .deliver(let ask):
            live[index]!.demand += ask
            hand(.value)
        case .queued(let ask):
            outcomes["value queued with its demand", default: 0] += 1
            live[index]!.demand += ask
        case .drop, .buffered:
            break
        }
    }

    /// An inner that finished, failed or was cancelled sends a value all the same.
    private mutating func sendLateValue() {
        let index = gone.randomElement(using: &random)!
        let value = takeValue()
        let verdict = machine.innerValue(index, value)
        log.append("gone inner \(index) sends \(value): \(verdict)")
        switch verdict {
        case .deliver: hand(.value)
        case .queued: outcomes["value queued with its demand", default: 0] += 1
        case .drop, .buffered: break
        }
    }

    private mutating func finishInner() {
        let index = live.keys.sorted().randomElement(using: &random)!
        live[index] = nil
        gone.append(index)
        log.append("inner \(index) finishes")
        var quick = machine
        let settlement = quick.finishInnerQuietly(index)
        var full = machine
        let effects = full.innerFinished(index)
        settleOrPerform("finishInnerQuietly", settlement, quick, full, effects)
    }

    private mutating func failInner() {
        let index = live.keys.sorted().randomElement(using: &random)!
        live[index] = nil
        gone.append(index)
        log.append("inner \(index) fails")
        perform(machine.innerFailed(index, TestError(id: 2)))
    }

    // MARK: Cross-checks

    private mutating func settleOrPerform(
        _ name: String, _ settlement: FlattenSettlement, _ quick: Machine, _ full: Machine,
        _ effects: Machine.Effects
    ) {
        if settlement.isSettled {
            agree(name, quick, full, calls(effects), calls(settlement))
            machine = quick
            perform(settlement)
        } else {
            declined(name, quick)
            machine = full
            perform(effects)
        }
    }

    /// A quick transition was taken: it must leave the state the full one leaves, and ask for
    /// the same calls.
    private mutating func agree(
        _ name: String, _ quick: Machine, _ full: Machine, _ fullCalls: String, _ quickCalls: String
    ) {
        outcomes["\(name) taken", default: 0] += 1
        if snapshot(quick) != snapshot(full) {
            fail(
                "\(name) was taken and left\n  \(snapshot(quick))\nwhere the full transition leaves\n  \(snapshot(full))"
            )
        } else if quickCalls != fullCalls {
            fail("\(name) was taken and asks for \(quickCalls) where the full transition asks for \(fullCalls)")
        }
    }

    /// A quick transition was declined: it must have changed nothing.
    private mutating func declined(_ name: String, _ quick: Machine) {
        outcomes["\(name) declined", default: 0] += 1
        if snapshot(quick) != snapshot(machine) {
            fail("\(name) was declined but changed\n  \(snapshot(machine))\nto\n  \(snapshot(quick))")
        }
    }

    // MARK: Performing

    /// Makes the calls a full transition asks for, as the storage does; a drain hands this driver
    /// the token.
    private mutating func perform(_ effects: Machine.Effects, immediateAfter: Bool = false) {
        forget(effects.cancels)
        if let request = effects.request { granted(request.subscription, request.demand) }
        for subscription in effects.unlimited { granted(subscription, .unlimited) }
        switch effects.drain {
        case .idle:
            break
        case .deliver(let value):
            log.append("  delivers \(value)")
            return hand(.drain(immediateAfter: immediateAfter))
        case .complete(let completion):
            log.append("  completes: \(completion)")
            hand(.completion)
        case .release:
            log.append("  releases the downstream")
            hand(.over)
        }
        if immediateAfter { perform(machine.immediateFinished()) }
    }

    private mutating func perform(_ settlement: FlattenSettlement) {
        if case .settledAsking(let subscription, let demand) = settlement { granted(subscription, demand) }
    }

    /// The machine handed its drain token to a caller: nobody may hold it already.
    private mutating func hand(_ next: Holder) {
        if holder != .nobody { return fail("the token went to \(next) while \(holder) held it") }
        holder = next
    }

    private mutating func granted(_ subscription: any Subscription, _ demand: Subscribers.Demand) {
        if subscription as AnyObject === upstream {
            upstreamDemand += demand
        } else if let index = live.first(where: { $0.value.subscription === subscription as AnyObject })?.key {
            live[index]!.demand += demand
        }
    }

    private mutating func forget(_ cancels: [any Subscription]) {
        for subscription in cancels {
            if subscription as AnyObject === upstream { upstreamDone = true }
            for (index, inner) in live where inner.subscription === subscription as AnyObject { gone.append(index) }
            live = live.filter { $0.value.subscription !== subscription as AnyObject }
        }
    }

    private mutating func fail(_ message: String) {
        if failure == nil { failure = message }
    }

    // MARK: Values

    private mutating func takeValue() -> Int {
        defer { nextValue += 1 }
        return nextValue
    }

    private mutating func randomDemand(atLeastOne: Bool = false) -> Subscribers.Demand {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return atLeastOne ? .max(1) : .none
        case 4..<7: return .max(1)
        case 7..<9: return .max(2)
        default: return .unlimited
        }
    }

    // MARK: Describing

    private func calls(_ effects: Machine.Effects) -> String {
        let cancels = effects.cancels.map(name)
        let request = effects.request.map { "\(name($0.subscription)) \($0.demand)" } ?? "nil"
        let unlimited = effects.unlimited.isEmpty ? "" : " unlimited \(effects.unlimited.map(name))"
        return "cancels \(cancels) request \(request) drain \(effects.drain)\(unlimited)"
    }

    private func calls(_ settlement: FlattenSettlement) -> String {
        switch settlement {
        case .unsettled, .settled:
            return "cancels [] request nil drain idle"
        case .settledAsking(let subscription, let demand):
            return "cancels [] request \(name(subscription)) \(demand) drain idle"
        }
    }

    private func name(_ subscription: any Subscription) -> String {
        if subscription as AnyObject === upstream { return "upstream" }
        if let index = live.first(where: { $0.value.subscription === subscription as AnyObject })?.key {
            return "inner \(index)"
        }
        return "\(ObjectIdentifier(subscription as AnyObject))"
    }

    /// The upstream's subscription by name, `-` for the stand-in the machine holds without one.
    private func upstreamName(_ machine: Machine) -> String {
        machine.upstreamSubscription is UnattachedSubscription ? "-" : name(machine.upstreamSubscription)
    }

    private func snapshot(_ machine: Machine) -> String {
        let inners = machine.inners.heldIndices.map { index in
            let inners = machine.inners
            return
                "\(index): \(inners.subscription(index).map(name) ?? "-") \(inners.isUnlimited(index)) \(inners.isImmediate(index))"
        }
        let buffer = machine.buffer.map { "\($0.index):\($0.value)" }
        return """
            upstream \(machine.upstream) \(upstreamName(machine)) inners \(inners) \
            next \(machine.nextIndex) demand \(machine.demand) buffer \(buffer) paid \(machine.paid) \
            delivering \(machine.delivering) completion \(String(describing: machine.completion)) \
            terminated \(machine.terminated) receiving completion \(machine.receivingCompletion)
            """
    }
}

extension FlattenState {
    /// What the storage does after ``upstreamFinishedQuietly()`` returned `true`: the caller holds
    /// the token and delivers `.finished`.
    fileprivate var upstreamFinishedQuietlyEffects: Effects {
        var effects = Effects()
        effects.drain = .complete(.finished)
        return effects
    }
}
