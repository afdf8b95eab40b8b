import Dispatch
import Tether
import TetherExtras

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension PublisherChecker {
    func runAll() {
        checkSubscriptionComesFirstAndOnce()
        checkDemandIsHonoured()
        checkFewerValuesThenFinished()
        checkFailureIsSignalled()
        if options.termination != .never { checkNothingAfterCompletion() }
        if options.concurrentSignals { checkSignalsNeverOverlap() }
        if options.multicast { checkEverySubscriberSeesTheSameSequence() }
        checkRequestFromInsideReceive()
        checkRequestAndCancelAfterCancelAreNoOps()
        checkDemandIsAdditive()
        checkCancelStopsSignals()
        checkCancelReleasesTheSubscriber()
        if options.termination != .never { checkCompletionReleasesTheSubscriber() }
        checkLargeDemand()
        if case .ignored = options.zeroDemand { checkZeroDemandIsIgnored() }
    }

    /// §1.9, and §1.1 with no demand at all.
    func checkSubscriptionComesFirstAndOnce() {
        check("subscription comes first, once") { log in
            let source = make()
            let probe = Probe(
                log: log, accounting: options.demand, demand: .none, keepsSubscriptionAfterCompletion: true)
            source.publisher.subscribe(probe)
            if !eventually({ probe.subscriptionCount > 0 }) {
                log.record("1.9", "subscribe(_:) never called receive(subscription:).")
            }
            source.emit(elements)
            quiet()
            if probe.valueCount > 0, options.demand != .uncounted {
                log.record("1.1", "\(probe.valueCount) values arrived though the subscriber requested nothing.")
            }
            probe.cancel()
            withExtendedLifetime(source) {}
        }
    }

    /// §1.1: exactly the demand, for several demands below the element count.
    func checkDemandIsHonoured() {
        let demands = Set([1, 2, elements / 2, elements - 1]).filter { $0 >= 1 && $0 < elements }.sorted()
        for demand in demands {
            check("demand of max(\(demand)) is honoured") { log in
                let probe = Probe(log: log, accounting: options.demand, demand: .max(demand))
                let source = subscribeAndRun(probe)
                expect(
                    probe, values: deliversAll ? elements : demand, finishes: false, rule: "1.2", log,
                    "with demand max(\(demand))")
                probe.cancel()
                withExtendedLifetime(source) {}
            }
        }
    }

    /// §1.2 and §1.5: more demand than elements gives every element, then `.finished`.
    func checkFewerValuesThenFinished() {
        for demand in [Subscribers.Demand.max(elements + 3), .unlimited] {
            check("demand of \(demand) gives every element, then finished") { log in
                let probe = Probe(log: log, accounting: options.demand, demand: demand)
                let source = subscribeAndRun(probe)
                if options.termination == .never {
                    expect(probe, values: elements, finishes: true, rule: "1.2", log, "with demand \(demand)")
                    probe.cancel()
                    withExtendedLifetime(source) {}
                    return
                }
                eventually { probe.completion != nil }
                quiet()
                if probe.completion == nil && probe.valueCount == elements {
                    log.record(
                        "1.5", "all \(elements) elements arrived for a demand of \(demand), but no completion followed."
                    )
                } else if probe.valueCount != elements || !hasDeclaredCompletion(probe) {
                    let ending = options.termination == .fails ? "failed" : "finished"
                    log.record(
                        "1.2", "with demand \(demand): expected \(elements) values, \(ending); got \(probe.summary).")
                }
                probe.cancel()
                withExtendedLifetime(source) {}
            }
        }
    }

    /// §1.4: a failing publisher signals its failure.
    func checkFailureIsSignalled() {
        if options.termination == .never { return }
        let declaredToFail = options.termination == .fails
        let hotFail = make().fail != nil
        guard failing != nil || hotFail || declaredToFail else { return }
        check("failure is signalled") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .unlimited)
            let source: PublisherUnderTest<P>
            if declaredToFail {
                source = subscribeAndRun(probe)
            } else if let failing {
                source = failing()
                source.publisher.subscribe(probe)
            } else {
                source = make()
                source.publisher.subscribe(probe)
                source.emit(elements)
                source.fail?()
            }
            eventually { probe.completion != nil }
            quiet()
            if !probe.isFailed {
                log.record("1.4", "the failing publisher did not signal a failure; got \(probe.summary).")
            }
            withExtendedLifetime(source) {}
        }
    }

    /// §1.7: after the completion, requests, sends and completions deliver nothing.
    func checkNothingAfterCompletion() {
        check("nothing after the completion") { log in
            let probe = Probe(
                log: log, accounting: options.demand, demand: .unlimited, keepsSubscriptionAfterCompletion: true)
            let source = subscribeAndRun(probe)
            guard eventually({ probe.completion != nil }) else { return }
            let count = probe.valueCount
            probe.subscription?.request(.max(1))
            source.emit(elements)
            source.finish?()
            source.fail?()
            quiet()
            if probe.valueCount != count {
                log.record("1.7", "\(probe.valueCount - count) values arrived after the completion.")
            }
            probe.releaseSubscription()
            withExtendedLifetime(source) {}
        }
    }

    /// §1.3: requests (cold) or sends (hot) from four threads at once never overlap in the
    /// subscriber, and lose nothing. Overlap needs the threads to really run together, which a
    /// busy machine may not allow every time, so the scenario runs several rounds.
    func checkSignalsNeverOverlap() {
        check("signals never overlap") { log in
            for _ in 0..<8 {
                runOverlapRound(log)
                if !log.violations.isEmpty { return }
            }
        }
    }

    private func runOverlapRound(_ log: ViolationLog) {
        let threads = 4
        let source = make()
        let probe = Probe(
            log: log, accounting: options.demand, demand: source.isHot ? .unlimited : .none,
            holdPerValue: .milliseconds(1))
        source.publisher.subscribe(probe)
        if source.isHot {
            let elements = elements
            concurrently(threads) { thread in
                for index in source.replays..<max(source.replays, elements) where index % threads == thread {
                    source.send?(index)
                }
            }
            source.finish?()
        } else {
            let perThread = (elements + threads - 1) / threads
            concurrently(threads) { _ in
                for _ in 0..<perThread { probe.request(.max(1)) }
            }
        }
        expect(probe, values: elements, finishes: true, rule: "1.3", log, "with signals from \(threads) threads")
        probe.cancel()
        withExtendedLifetime(source) {}
    }

    /// §1.11: every subscriber of a multicast publisher sees the same sequence.
    func checkEverySubscriberSeesTheSameSequence() {
        check("every subscriber sees the same sequence") { log in
            let source = make()
            let probes = (0..<3).map { _ in Probe(log: log, accounting: options.demand, demand: .unlimited) }
            for probe in probes { source.publisher.subscribe(probe) }
            source.emitAndFinish(elements)
            if options.termination == .never {
                eventually { probes.allSatisfy { $0.valueCount >= elements } }
            } else {
                eventually { probes.allSatisfy { $0.completion != nil } }
            }
            quiet()
            let first = probes[0]
            for (index, probe) in probes.enumerated().dropFirst()
            where probe.valueDescriptions != first.valueDescriptions
                || String(describing: probe.completion) != String(describing: first.completion)
            {
                log.record(
                    "1.11",
                    "subscriber \(index + 1) got \(probe.valueDescriptions) then \(probe.summary); subscriber 1 got \(first.valueDescriptions)."
                )
            }
            for probe in probes { probe.cancel() }
            withExtendedLifetime(source) {}
        }
    }

    /// §3.2 and §3.3: `request` from inside `receive(_:)` keeps the stream going without
    /// unbounded recursion.
    func checkRequestFromInsideReceive() {
        check("request from inside receive") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .max(1)) { probe, _ in
                probe.request(.max(1))
                return .none
            }
            let source = subscribeAndRun(probe)
            expect(
                probe, values: elements, finishes: true, rule: "3.2", log, "requesting max(1) inside each receive(_:)")
            if probe.deepestNesting > options.maximumNesting {
                log.record(
                    "3.3",
                    "receive(_:) nested \(probe.deepestNesting) deep on one thread (allowed: \(options.maximumNesting))."
                )
            }
            probe.cancel()
            withExtendedLifetime(source) {}
        }
    }

    /// §3.6 and §3.7: after `cancel()`, `request` and a second `cancel` deliver nothing.
    func checkRequestAndCancelAfterCancelAreNoOps() {
        check("request and cancel after cancel are no-ops") { log in
            let source = make()
            let probe = Probe(log: log, accounting: options.demand, demand: .max(1))
            source.publisher.subscribe(probe)
            guard let subscription = probe.subscription else { return }
            probe.cancel()
            // With eventual cancellation a value already on its way may still land: count from
            // once it has, and give a wrongly served request the same time to show.
            if case .eventual = options.cancellation { _ = settled(probe) }
            let count = probe.valueCount
            subscription.request(.max(2))
            quiet()
            if probe.valueCount != count {
                log.record("3.6", "request(.max(2)) after cancel() delivered \(probe.valueCount - count) values.")
            }
            let before = probe.signalsAfterCancel
            subscription.cancel()
            source.emitAndFinish(elements)
            quiet()
            if probe.signalsAfterCancel > before {
                log.record("3.7", "\(probe.signalsAfterCancel - before) signals arrived after a second cancel().")
            }
            withExtendedLifetime(source) {}
        }
    }

    /// §3.8: demand is additive, whether requested twice or returned from `receive(_:)`.
    func checkDemandIsAdditive() {
        let expected = deliversAll ? elements : min(3, elements)
        check("demand is additive: two requests") { log in
            let source = make()
            let probe = Probe(log: log, accounting: options.demand, demand: .none)
            source.publisher.subscribe(probe)
            probe.request(.max(1))
            probe.request(.max(2))
            source.emitAndFinish(elements)
            expect(
                probe, values: expected, finishes: deliversAll || elements <= 3, rule: "3.8", log,
                "after max(1) then max(2)")
            probe.cancel()
            withExtendedLifetime(source) {}
        }
        check("demand is additive: two requests from inside receive") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .max(1)) { probe, count in
                if count == 1 {
                    probe.request(.max(1))
                    probe.request(.max(1))
                }
                return .none
            }
            let source = subscribeAndRun(probe)
            expect(
                probe, values: expected, finishes: deliversAll || elements <= 3, rule: "3.8", log,
                "after max(1), then max(1) twice inside receive")
            probe.cancel()
            withExtendedLifetime(source) {}
        }
        check("demand is additive: returned from receive") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .max(1)) { _, count in
                count == 1 ? .max(2) : .none
            }
            let source = subscribeAndRun(probe)
            expect(
                probe, values: expected, finishes: deliversAll || elements <= 3, rule: "3.8", log,
                "after max(1), then max(2) returned")
            probe.cancel()
            withExtendedLifetime(source) {}
        }
    }

    /// §3.12: cancelling from inside `receive(_:)` stops signals.
    func checkCancelStopsSignals() {
        guard elements > 0 else { return }
        check("cancel stops signals") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .unlimited) { probe, count in
                if count == 1 { probe.cancel() }
                return .none
            }
            let source = subscribeAndRun(probe)
            eventually { probe.valueCount > 0 }
            quiet()
            switch options.cancellation {
            case .immediate:
                if probe.signalsAfterCancel > 0 {
                    log.record(
                        "3.12",
                        "\(probe.signalsAfterCancel) signals arrived after cancel() returned (\(probe.summary)).")
                }
            case .eventual:
                if !settled(probe) {
                    log.record("3.12", "values kept arriving after cancel() (\(probe.summary)).")
                }
            }
            withExtendedLifetime(source) {}
        }
    }

    /// §3.13: after `cancel()`, the publisher lets go of the subscriber even while the
    /// subscription object lives on.
    func checkCancelReleasesTheSubscriber() {
        check("cancel releases the subscriber") { log in
            let source = make()
            var probe: Probe? = Probe(log: log, accounting: options.demand, demand: .max(1))
            weak let released = probe
            var subscription: (any Subscription)?
            if let live = probe {
                source.publisher.subscribe(live)
                subscription = live.subscription
                live.cancel()
            }
            probe = nil
            let description = describe(subscription)
            if options.subscriberRelease == .withTheSubscription { subscription = nil }
            if !eventually({ released == nil }) {
                log.record("3.13", "after cancel(), the subscription (\(description)) still holds the subscriber.")
            }
            withExtendedLifetime((source, subscription)) {}
        }
    }

    /// Combine: after the completion, the publisher lets go of the subscriber too.
    func checkCompletionReleasesTheSubscriber() {
        check("completion releases the subscriber") { log in
            let source = make()
            var probe: Probe? = Probe(
                log: log, accounting: options.demand, demand: .unlimited, keepsSubscriptionAfterCompletion: true)
            weak let released = probe
            var subscription: (any Subscription)?
            if let live = probe {
                source.publisher.subscribe(live)
                source.emitAndFinish(elements)
                guard eventually({ live.completion != nil }) else { return }
                subscription = live.subscription
                live.releaseSubscription()
            }
            probe = nil
            let description = describe(subscription)
            if options.subscriberRelease == .withTheSubscription { subscription = nil }
            if !eventually({ released == nil }) {
                log.record(
                    "3.13",
                    "after the completion, the subscription (\(description)) still holds the subscriber; Combine's publishers let go on completion as on cancel."
                )
            }
            withExtendedLifetime((source, subscription)) {}
        }
    }

    /// §3.17: demand up to `Int.max`, and cumulative demand beyond it, is honoured.
    func checkLargeDemand() {
        check("demand of max(Int.max)") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .max(Int.max))
            let source = subscribeAndRun(probe)
            expect(probe, values: elements, finishes: true, rule: "3.17", log, "with demand max(Int.max)")
            probe.cancel()
            withExtendedLifetime(source) {}
        }
        check("cumulative demand beyond Int.max") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .max(Int.max)) { probe, count in
                guard count == 1 else { return .none }
                probe.request(.max(Int.max))
                return .max(Int.max)
            }
            let source = subscribeAndRun(probe)
            expect(probe, values: elements, finishes: true, rule: "3.17", log, "with demand adding up beyond Int.max")
            probe.cancel()
            withExtendedLifetime(source) {}
        }
        check("unlimited demand plus more") { log in
            let probe = Probe(log: log, accounting: options.demand, demand: .unlimited) { probe, count in
                if count == 1 { probe.request(.max(1)) }
                return count == 1 ? .max(1) : .none
            }
            let source = subscribeAndRun(probe)
            expect(probe, values: elements, finishes: true, rule: "3.17", log, "with unlimited demand, then more")
            probe.cancel()
            withExtendedLifetime(source) {}
        }
    }

    /// §3.9 as Combine reads it for publishers that ignore `request(.none)`.
    func checkZeroDemandIsIgnored() {
        check("request(.none) is ignored") { log in
            let source = make()
            let probe = Probe(log: log, accounting: options.demand, demand: .none)
            source.publisher.subscribe(probe)
            probe.request(.none)
            source.emit(elements)
            quiet()
            if probe.valueCount > 0 {
                log.record("3.9", "request(.none) delivered \(probe.valueCount) values.")
            }
            probe.request(.max(1))
            source.emitAndFinish(elements)
            let expected = deliversAll ? elements : min(1, elements)
            eventually { probe.valueCount >= expected }
            quiet()
            if probe.valueCount != expected {
                log.record(
                    "3.9",
                    "after request(.none), request(.max(1)) delivered \(probe.valueCount) values, not \(expected).")
            }
            probe.cancel()
            withExtendedLifetime(source) {}
        }
    }

    private func describe(_ subscription: (any Subscription)?) -> String {
        subscription.map { String(describing: $0) } ?? "none"
    }
}

/// Runs `work` on `threads` threads at once and waits for all of them.
///
/// Each thread is a serial queue of its own (so none waits for another to finish), and a
/// ``SpinBarrier`` releases them together. The work touches the publisher under test from
/// several threads on purpose: that is what the caller asked to check.
func concurrently(_ threads: Int, _ work: (Int) -> Void) {
    withoutActuallyEscaping(work) { work in
        let shared = UncheckedSendable(work)
        let barrier = SpinBarrier(parties: threads)
        let group = DispatchGroup()
        for thread in 0..<threads {
            DispatchQueue(label: "tether.conformance.\(thread)").async(group: group) {
                barrier.arriveAndWait()
                shared.value(thread)
            }
        }
        group.wait()
    }
}

/// Carries values the checker shares with the threads it starts, which it joins before reading.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
