@testable import TetherCore
import TetherTesting
import XCTest

/// The quick `settle(_:)` of the merge, zip and combine-latest machines against the full
/// `delivered(_:)` it stands for (and a subject conduit's against its next step), on random event sequences: where `settle` ends the drainer's
/// turn, `delivered` must end it too, asking for nothing and leaving the same state; where it
/// declines, it changed nothing.
final class DrainSettleQuickPathTests: TetherTestCase {
    func testMergeSettlesOnlyWhereDeliveredWouldEndTheTurn() {
        check(MergeState.self)
    }

    func testZipSettlesOnlyWhereDeliveredWouldEndTheTurn() {
        check(ZipState<CombiningSlotArray<ZipSlot<Int?>>>.self)
    }

    func testCombineLatestSettlesOnlyWhereDeliveredWouldEndTheTurn() {
        check(CombineLatestState<CombiningSlotArray<LatestSlot<Int?>>>.self)
    }

    /// A subject's conduit settles a delivery exactly when, with the returned demand added, it
    /// has nothing to deliver next: no latest value, requested since it was kept, that the demand
    /// now allows.
    func testSubjectConduitSettlesOnlyWhereItsNextStepIsIdle() {
        typealias State = SubjectSubscriptionState<RecordingSubscriber<Int, Never>>
        let parent = PassthroughSubject<Int, Never>()
        assertSettleAgreesWithTheNextStep(
            seed: 1,
            make: { random in
                let keepsLatest = random.chance(50)
                var state = State(
                    kind: keepsLatest ? .currentValueSubject : .passthroughSubject, downstream: RecordingSubscriber(),
                    parent: parent, latest: nil)
                state.demand = [.none, .max(1), .max(2), .unlimited].randomElement(using: &random)!
                if keepsLatest, random.chance(50) {
                    state.latest = 7
                    state.latestRequested = random.chance(75)
                }
                if random.chance(10) { _ = state.terminate() }
                return state
            },
            settle: { $0.settle($1) }, add: { $0.add($1) },
            nextIsIdle: { $0.next() == nil },
            describe: snapshot)
    }

    private func snapshot<Downstream: Subscriber>(_ state: SubjectSubscriptionState<Downstream>) -> String {
        "downstream \(state.downstream != nil) demand \(state.demand) latest \(String(describing: state.latest))"
            + " requested \(state.latestRequested)"
    }

    private func check<Machine: DrainMachine>(_: Machine.Type, file: StaticString = #filePath, line: UInt = #line) {
        var taken = 0
        var declined = 0
        for seed in 0..<UInt64(2_000) {
            var driver = DrainDriver<Machine>(upstreams: 2 + Int(seed % 2), seed: seed)
            driver.run(steps: 60)
            if let failure = driver.failure {
                return XCTFail(
                    "seed \(seed): \(failure)\n" + driver.log.joined(separator: "\n"), file: file, line: line)
            }
            taken += driver.taken
            declined += driver.declined
        }
        // Both outcomes happened many times, or the comparison proves little.
        XCTAssertGreaterThan(taken, 1_000, file: file, line: line)
        XCTAssertGreaterThan(declined, 1_000, file: file, line: line)
    }
}

/// What a drainer does next, in the terms every drain machine shares.
private enum DrainStep: Equatable {
    case idle
    case release
    case deliver
    case complete
}

/// A merge, zip or combine-latest machine as the driver sees it: upstreams of `Int`, and every
/// outcome reduced to its calls (described) and its step.
private protocol DrainMachine {
    init(upstreams: Int)
    mutating func attach(_ index: Int, _ subscription: any Subscription) -> Subscribers.Demand?
    mutating func send(_ index: Int, _ value: Int) -> (calls: String, step: DrainStep)
    mutating func complete(_ index: Int, failing: Bool) -> (calls: String, step: DrainStep)
    mutating func request(_ more: Subscribers.Demand) -> (calls: String, step: DrainStep)
    mutating func delivered(_ more: Subscribers.Demand) -> (calls: String, step: DrainStep)
    mutating func settle(_ more: Subscribers.Demand) -> Bool
    mutating func cancel() -> (cancel: [any Subscription], release: Bool)
}

extension MergeState: DrainMachine {
    fileprivate mutating func send(_ index: Int, _ value: Int) -> (calls: String, step: DrainStep) {
        switch receive(index, value) {
        case .deliverNow: return ("", .deliver)
        case .queued, .dropped: return ("", .idle)
        }
    }

    fileprivate mutating func complete(_ index: Int, failing: Bool) -> (calls: String, step: DrainStep) {
        let (cancel, step) = complete(index, failing ? .failure(TestError(id: 1)) : .finished)
        return ("cancel \(cancel.count)", Self.drainStep(step))
    }

    fileprivate mutating func request(_ more: Subscribers.Demand) -> (calls: String, step: DrainStep) {
        let (unlimit, step): ([any Subscription], Step) = request(more)
        return ("unlimit \(unlimit.count)", Self.drainStep(step))
    }

    fileprivate mutating func delivered(_ more: Subscribers.Demand) -> (calls: String, step: DrainStep) {
        let step: Step = delivered(more)
        if case .deliver(_, let refill?) = step { return ("refill \(ObjectIdentifier(refill as AnyObject))", .deliver) }
        return ("", Self.drainStep(step))
    }

    private static func drainStep(_ step: Step) -> DrainStep {
        switch step {
        case .idle: return .idle
        case .release: return .release
        case .deliver: return .deliver
        case .complete: return .complete
        }
    }
}

extension ZipState: DrainMachine where Slots == CombiningSlotArray<ZipSlot<Int?>> {
    fileprivate mutating func send(_ index: Int, _ value: Int) -> (calls: String, step: DrainStep) {
        combiningCalls { receive(index, into: $0) { $0.slots[index].put(value) } }
    }
}

extension CombineLatestState: DrainMachine where Slots == CombiningSlotArray<LatestSlot<Int?>> {
    fileprivate mutating func send(_ index: Int, _ value: Int) -> (calls: String, step: DrainStep) {
        combiningCalls { receive(index, into: $0) { $0.slots[index].put(value) } }
    }
}

extension CombiningState {
    fileprivate mutating func complete(_ index: Int, failing: Bool) -> (calls: String, step: DrainStep) {
        let outcome = complete(index, failing ? .failure(TestError(id: 1)) : .finished)
        return combiningCalls { _ in outcome }
    }

    fileprivate mutating func request(_ more: Subscribers.Demand) -> (calls: String, step: DrainStep) {
        combiningCalls { request(more, into: $0) }
    }

    fileprivate mutating func delivered(_ more: Subscribers.Demand) -> (calls: String, step: DrainStep) {
        combiningCalls { delivered(more, into: $0) }
    }

    /// The outcome's calls (empty when it asks for none) and step, of `event` run with a place for
    /// the output, as the subscription runs it.
    fileprivate func combiningCalls(_ event: (UnsafeMutablePointer<Slots.Output>) -> CombiningOutcome)
        -> (calls: String, step: DrainStep)
    {
        let outcome = SeenOutcome(event).outcome
        var calls = ""
        if let request = outcome.request { calls += "request \(request.count) of \(outcome.demand) " }
        if let cancel = outcome.cancel { calls += "cancel \(cancel.count)" }
        switch outcome.step {
        case .idle: return (calls, .idle)
        case .release: return (calls, .release)
        case .deliver: return (calls, .deliver)
        case .complete: return (calls, .complete)
        }
    }
}

/// Plays the upstreams and the downstream around one drain machine, one random event at a time,
/// and cross-checks `settle` against `delivered` each time the drainer's call returns.
private struct DrainDriver<Machine: DrainMachine> {
    var machine: Machine
    var random: SeededGenerator
    let upstreams: Int
    /// The driver holds the machine's drain token: a call into the downstream is under way (at
    /// first, the hand-over of the subscription).
    var draining = true
    /// The downstream has its completion, or was let go of.
    var over = false
    var cancelled = false
    var attached: Set<Int> = []
    var completed: Set<Int> = []
    var nextValue = 0
    var failure: String?
    var taken = 0
    var declined = 0
    var log: [String] = []

    init(upstreams: Int, seed: UInt64) {
        machine = Machine(upstreams: upstreams)
        random = SeededGenerator(seed: seed)
        self.upstreams = upstreams
    }

    mutating func run(steps: Int) {
        for _ in 0..<steps where failure == nil {
            step()
        }
    }

    private mutating func step() {
        let roll = Int.random(in: 0..<100, using: &random)
        let index = Int.random(in: 0..<upstreams, using: &random)
        switch roll {
        case 0..<30 where draining:
            returnFromDownstream()
        case 0..<40 where !attached.contains(index):
            attached.insert(index)
            let ask = machine.attach(index, RecordingSubscription())
            log.append("upstream \(index) attached: asked \(String(describing: ask))")
        case 40..<75 where attached.contains(index) && !completed.contains(index):
            let value = nextValue
            nextValue += 1
            take(machine.send(index, value), "upstream \(index) sends \(value)")
        case 75..<80 where attached.contains(index) && !completed.contains(index):
            completed.insert(index)
            let failing = random.chance(20)
            take(machine.complete(index, failing: failing), "upstream \(index) \(failing ? "fails" : "finishes")")
        case 80..<98 where !over && !cancelled:
            let more: Subscribers.Demand = random.chance(10) ? .unlimited : .max(Int.random(in: 1...2, using: &random))
            take(machine.request(more), "downstream requests \(more)")
        case 98..<100 where !over && !cancelled:
            cancelled = true
            let (cancel, release) = machine.cancel()
            log.append("downstream cancels: cancel \(cancel.count), release \(release)")
            if release { take(("", .release), "  released") }
        default:
            break
        }
    }

    private mutating func returnFromDownstream() {
        let more: Subscribers.Demand = [.none, .none, .none, .max(1), .max(2), .unlimited].randomElement(
            using: &random)!
        log.append("downstream returns \(more)")
        draining = false
        var quick = machine
        let settled = quick.settle(more)
        var full = machine
        let outcome = full.delivered(more)
        if settled {
            taken += 1
            if outcome.step != .idle || !outcome.calls.isEmpty {
                return fail("settle(\(more)) ended the turn where delivered asks for \(outcome)")
            }
            if snapshot(quick) != snapshot(full) {
                return fail("settle(\(more)) left\n\(snapshot(quick))\nwhere delivered leaves\n\(snapshot(full))")
            }
            machine = quick
        } else {
            declined += 1
            if snapshot(quick) != snapshot(machine) { return fail("settle(\(more)) declined but changed the state") }
            machine = full
            take(outcome, "  delivered")
        }
    }

    private mutating func take(_ outcome: (calls: String, step: DrainStep), _ event: String) {
        log.append("\(event): \(outcome.calls) \(outcome.step)")
        switch outcome.step {
        case .idle:
            break
        case .deliver:
            if draining || over { return fail("the token went to a second caller") }
            draining = true
        case .complete, .release:
            if draining || over { return fail("the stream ended twice, or while a delivery was under way") }
            over = true
        }
    }

    private mutating func fail(_ message: String) {
        if failure == nil { failure = message }
    }

    private func snapshot(_ machine: Machine) -> String {
        var text = ""
        dump(machine, to: &text)
        return text
    }
}
