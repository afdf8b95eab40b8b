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

/// Verifies that a publisher keeps the publisher side of the Reactive Streams contract, as it
/// applies to Combine's protocols.
///
/// Each check subscribes a fresh instrumented subscriber to a fresh publisher from your factory,
/// drives it through one scenario, and reports what went wrong as ``ConformanceViolation``s
/// naming the rule. An empty result means the publisher passed.
///
/// ```swift
/// let violations = PublisherConformance.verify(elements: 5) { (0..<5).publisher }
/// XCTAssertEqual(violations, [])
/// ```
///
/// The checks, by rule:
/// - §1.1 values never exceed the total demand (initial, requested, and returned from
///   `receive(_:)`), checked on every value of every scenario;
/// - §1.2 with demand beyond the element count: every element, then `.finished`; with less:
///   exactly the demand (a publisher that stops short must complete);
/// - §1.3 no two signals overlap from different threads (with
///   ``Options/concurrentSignals``: requests, or hot sends, from four threads at once);
/// - §1.4 the failing variant fails; §1.5 a finite publisher finishes;
/// - §1.7 nothing after the completion, even when asked (`request`, hot sends, a second
///   completion);
/// - §1.9 `receive(subscription:)` exactly once, before anything else;
/// - §1.11 with ``Options/multicast``: every subscriber sees the same sequence;
/// - §3.2/§3.3 `request` from inside `receive(_:)` keeps the stream going, and `receive(_:)`
///   never nests deeper than ``Options/maximumNesting`` on one thread;
/// - §3.6/§3.7 `request` and `cancel` after `cancel` deliver nothing;
/// - §3.8 demand is additive (two requests; a request plus demand returned from `receive`);
/// - §3.9 `request(.none)`, as ``Options/zeroDemand`` says;
/// - §3.12 nothing arrives after `cancel()` returns (or, with ``Options/Cancellation/eventual``,
///   signals stop);
/// - §3.13 after `cancel()`, and after the completion, the publisher lets go of the subscriber
///   (checked with a weak reference while the subscription object is kept alive, or, with
///   ``Options/subscriberRelease`` `.withTheSubscription`, once the subscription goes too);
/// - §3.17 demand of `.max(Int.max)`, and cumulative demand that saturates to `.unlimited`.
///
/// ``Options/termination`` adapts the checks to a publisher that fails instead of finishing
/// (`Fail`) or never completes (`Published.Publisher`), and ``Options/demand`` to one that
/// stops counting demand once any was requested (`ObservableObjectPublisher`).
public enum PublisherConformance {
    /// How the publisher under test is expected to behave where Combine leaves a choice.
    public struct Options: Sendable {
        /// What `request(.none)` does; Combine's own publishers differ.
        public enum ZeroDemand: Sendable {
            /// `request(.none)` traps. Checked only by
            /// ``PublisherConformance/verifyZeroDemandTraps(_:make:)``, which needs a child
            /// process; ``PublisherConformance/verify(elements:options:make:)`` checks nothing.
            case traps
            /// `request(.none)` is ignored: nothing arrives, and a later `request(.max(1))`
            /// delivers exactly one value.
            case ignored
            /// Not checked.
            case unchecked
        }

        /// When signals must stop after `cancel()`.
        public enum Cancellation: Sendable {
            /// Nothing arrives once `cancel()` has returned (a synchronous publisher).
            case immediate
            /// Signals in flight may still arrive, but they stop within ``Options/timeout``.
            case eventual
        }

        /// How the publisher's stream ends.
        public enum Termination: Sendable {
            /// It finishes after its elements; a failure is checked through a failing variant.
            case finishes
            /// Its only terminal is a failure, after its elements (none, for `Fail`): the
            /// checks that expect `.finished` expect the failure instead, and a hot publisher's
            /// `finish` must make it fail.
            case fails
            /// It never completes (`Published.Publisher`, `ObservableObjectPublisher`): the
            /// checks drive the elements, check what still applies (demand bounds, no overlap,
            /// subscription first and once, cancel stops signals and releases the subscriber,
            /// additive demand), and end by cancelling instead of waiting for a completion. A
            /// completion is reported as a violation; completion checks are skipped.
            case never
        }

        /// When the subscription lets go of its subscriber (§3.13).
        public enum SubscriberRelease: Sendable {
            /// On `cancel()` and on the completion, even while the subscription object lives on.
            case onCancelAndCompletion
            /// Only with the subscription object itself: the subscription holds the subscriber for
            /// its whole life, as Combine's operators that are their own downstream's subscription
            /// do (`tryMap`, `dropFirst`, `reduce`, `handleEvents`…). §3.13 then checks that the
            /// subscriber goes once it and its subscription are both let go after a cancel or the
            /// completion.
            case withTheSubscription
        }

        /// How the publisher counts demand.
        public enum DemandAccounting: Sendable {
            /// Every value uses up one unit of demand (the contract).
            case counted
            /// Once any demand was requested, every value is delivered without counting
            /// demand, as Combine's `ObservableObjectPublisher` does. §1.1 then only checks that
            /// nothing arrives before the first request; §1.2 and §3.8 expect every element
            /// once any demand arrived; §3.17 only checks that large demand keeps delivering.
            case uncountedOnceRequested
            /// Every value is delivered whatever the demand, as Combine's `replaceEmpty` does: it
            /// asks its upstream for `.unlimited` as soon as the subscriber has its subscription.
            /// §1.1 is not checked; §1.2 and §3.8 expect every element.
            case uncounted
        }

        /// What `request(.none)` does.
        public var zeroDemand: ZeroDemand
        /// How the stream ends.
        public var termination: Termination
        /// How the publisher counts demand.
        public var demand: DemandAccounting
        /// The publisher shares one stream among its subscribers (subjects, `share()`), so
        /// every subscriber must see the same sequence (§1.11).
        public var multicast: Bool
        /// The subscription tolerates `request` from several threads at once and a hot
        /// publisher's `send` may be called from several threads at once; Combine only
        /// requires callers to serialise these, so this is off unless the publisher documents it.
        public var concurrentSignals: Bool
        /// When signals must stop after `cancel()`.
        public var cancellation: Cancellation
        /// How deeply `receive(_:)` may nest on one thread when the subscriber requests from
        /// inside it (§3.3); 1 means never.
        public var maximumNesting: Int
        /// How long to wait for something that must happen (a completion, a release), in
        /// seconds.
        public var timeout: Double
        /// How long to wait before concluding that nothing more arrives, in seconds; raise it
        /// for publishers that deliver asynchronously.
        public var quietPeriod: Double
        /// When the subscription lets go of its subscriber.
        public var subscriberRelease: SubscriberRelease

        /// Creates options; the defaults suit a synchronous, unicast publisher.
        /// - Parameters:
        ///   - zeroDemand: What `request(.none)` does.
        ///   - termination: How the stream ends.
        ///   - demand: How the publisher counts demand.
        ///   - multicast: Whether every subscriber must see the same sequence.
        ///   - concurrentSignals: Whether requests and hot sends may come from several threads.
        ///   - cancellation: When signals must stop after `cancel()`.
        ///   - maximumNesting: How deeply `receive(_:)` may nest on one thread.
        ///   - timeout: How long to wait for what must happen, in seconds.
        ///   - quietPeriod: How long to wait before concluding nothing more arrives, in seconds.
        ///   - subscriberRelease: When the subscription lets go of its subscriber.
        public init(
            zeroDemand: ZeroDemand = .unchecked,
            termination: Termination = .finishes,
            demand: DemandAccounting = .counted,
            multicast: Bool = false,
            concurrentSignals: Bool = false,
            cancellation: Cancellation = .immediate,
            maximumNesting: Int = 1,
            timeout: Double = 2,
            quietPeriod: Double = 0,
            subscriberRelease: SubscriberRelease = .onCancelAndCompletion
        ) {
            self.zeroDemand = zeroDemand
            self.termination = termination
            self.demand = demand
            self.multicast = multicast
            self.concurrentSignals = concurrentSignals
            self.cancellation = cancellation
            self.maximumNesting = maximumNesting
            self.timeout = timeout
            self.quietPeriod = quietPeriod
            self.subscriberRelease = subscriberRelease
        }
    }

    /// Verifies a cold publisher: one that produces its elements itself, as demanded.
    ///
    /// - Parameters:
    ///   - elements: How many elements each publisher from `make` produces before it finishes;
    ///     3 or more exercises every check.
    ///   - options: Where the publisher's behaviour may legitimately differ.
    ///   - make: Makes a fresh publisher; called once per check.
    ///   - failing: Makes a publisher of the same type that fails (after any number of
    ///     values), for the §1.4 check; `nil` skips it.
    /// - Returns: The violations found; empty when the publisher conforms.
    public static func verify<P: Publisher>(
        elements: Int,
        options: Options = Options(),
        make: @escaping () -> P,
        failing: (() -> P)? = nil
    ) -> [ConformanceViolation] {
        let checker = PublisherChecker(
            elements: elements, options: options, make: { .cold(make()) },
            failing: failing.map { failing in { .cold(failing()) } })
        checker.runAll()
        return checker.violations
    }

    /// Verifies a publisher described by a ``PublisherUnderTest``: hot (a subject, fed through
    /// its `send`) or cold.
    ///
    /// A hot publisher's failure is checked through ``PublisherUnderTest/fail``.
    /// - Parameters:
    ///   - elements: How many elements an early subscriber with unlimited demand sees
    ///     (replayed ones included) before the publisher finishes.
    ///   - options: Where the publisher's behaviour may legitimately differ.
    ///   - make: Makes a fresh publisher under test; called once per check.
    /// - Returns: The violations found; empty when the publisher conforms.
    public static func verify<P: Publisher>(
        elements: Int,
        options: Options = Options(),
        make: @escaping () -> PublisherUnderTest<P>
    ) -> [ConformanceViolation] {
        let checker = PublisherChecker(elements: elements, options: options, make: make, failing: nil)
        checker.runAll()
        return checker.violations
    }

    /// Verifies that `request(.none)` traps, by running it in a child process (§3.9 as Combine
    /// reads it for publishers that trap).
    ///
    /// Call it from a test that `trap` names. In the parent process it re-runs that test in a
    /// child process with an environment variable naming `trap.id`; in that child, the call
    /// with the matching id subscribes, requests `.none`, and must die of a signal. Calls with
    /// other ids do nothing in the child.
    /// - Parameters:
    ///   - trap: The test to re-run and the id of this publisher.
    ///   - make: Makes the publisher.
    /// - Returns: A violation when the child returned from `request(.none)` or could not run.
    public static func verifyZeroDemandTraps<P: Publisher>(
        _ trap: ChildProcessTrap,
        make: () -> PublisherUnderTest<P>
    ) -> [ConformanceViolation] {
        let log = ViolationLog(check: "request(.none) traps")
        let outcome = trap.run {
            let source = make()
            // The subscription is kept past a completion: a publisher may end at once (one that
            // asks its upstream for everything), and `request(.none)` must trap all the same.
            let probe = ConformanceProbe<P.Output, P.Failure>(
                log: log, demand: .none, keepsSubscriptionAfterCompletion: true)
            source.publisher.subscribe(probe)
            probe.subscription?.request(.none)
            withExtendedLifetime(source) {}
        }
        switch outcome {
        case .trapped, .skipped:
            break
        case .returned(let output):
            log.record("3.9", "request(.none) returned normally; the publisher is declared to trap. \(output)")
        case .exited(let status, let output):
            log.record("3.9", "the child process exited with status \(status) before request(.none) ran. \(output)")
        case .unavailable(let reason):
            log.record("3.9", "the trap could not be checked: \(reason)")
        }
        return log.violations
    }
}

/// Runs the checks of ``PublisherConformance`` against one factory.
struct PublisherChecker<P: Publisher> {
    typealias Probe = ConformanceProbe<P.Output, P.Failure>

    let elements: Int
    let options: PublisherConformance.Options
    let make: () -> PublisherUnderTest<P>
    let failing: (() -> PublisherUnderTest<P>)?
    private let found = Guarded([ConformanceViolation]())

    var violations: [ConformanceViolation] { found.withLock { $0 } }

    init(
        elements: Int, options: PublisherConformance.Options, make: @escaping () -> PublisherUnderTest<P>,
        failing: (() -> PublisherUnderTest<P>)?
    ) {
        self.elements = elements
        self.options = options
        self.make = make
        self.failing = failing
    }

    func check(_ name: String, _ body: (ViolationLog) -> Void) {
        let log = ViolationLog(check: name)
        body(log)
        found.withLock { $0 += log.violations }
    }

    /// Polls `condition` until it holds or ``PublisherConformance/Options/timeout`` passes.
    @discardableResult
    func eventually(_ condition: () -> Bool) -> Bool {
        var waited = 0.0
        while !condition() {
            if waited >= options.timeout { return false }
            usleep(200)
            waited += 0.0002
        }
        return true
    }

    /// Waits, within ``Options/timeout``, until no value has reached `probe` for a millisecond.
    /// - Returns: `false` when values kept arriving.
    func settled(_ probe: Probe) -> Bool {
        var count = probe.valueCount
        return eventually {
            usleep(1_000)
            defer { count = probe.valueCount }
            return probe.valueCount == count
        }
    }

    /// Gives an asynchronous publisher time to do what it must not.
    func quiet() {
        if options.quietPeriod > 0 {
            usleep(UInt32(options.quietPeriod * 1_000_000))
        }
    }

    /// Subscribes `probe` to a fresh publisher and, for a hot one, emits every element and
    /// finishes; returns the publisher so the caller keeps it alive.
    func subscribeAndRun(_ probe: Probe) -> PublisherUnderTest<P> {
        let source = make()
        source.publisher.subscribe(probe)
        source.emitAndFinish(elements)
        return source
    }

    /// Whether the probe's completion is the one the publisher declares (`.finished`, or a
    /// failure under ``PublisherConformance/Options/Termination/fails``).
    func hasDeclaredCompletion(_ probe: Probe) -> Bool {
        switch options.termination {
        case .finishes: return probe.isFinished
        case .fails: return probe.isFailed
        case .never: return false
        }
    }

    /// `true` when the publisher delivers every element once any demand was requested, or even
    /// before.
    var deliversAll: Bool { options.demand != .counted }

    /// Expects exactly `count` values, and the declared completion when `terminates` (for a
    /// publisher that never completes: no completion at all).
    func expect(
        _ probe: Probe, values count: Int, finishes terminates: Bool, rule: String, _ log: ViolationLog,
        _ context: String
    ) {
        let completes = terminates && options.termination != .never
        if completes {
            eventually { probe.completion != nil }
        } else {
            eventually { probe.valueCount >= count }
        }
        quiet()
        let endedAsExpected: Bool
        let ending: String
        switch (completes, options.termination) {
        case (true, .fails):
            endedAsExpected = probe.isFailed
            ending = ", failed"
        case (true, _):
            endedAsExpected = probe.isFinished
            ending = ", finished"
        case (false, .never):
            endedAsExpected = probe.completion == nil
            ending = ", no completion (declared never to complete)"
        case (false, _):
            endedAsExpected = true
            ending = ""
        }
        if probe.valueCount != count || !endedAsExpected {
            log.record(rule, "\(context): expected \(count) values\(ending); got \(probe.summary).")
        }
    }
}
