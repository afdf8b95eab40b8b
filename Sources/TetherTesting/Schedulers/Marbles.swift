import Synchronization
import Tether

/// One thing a marble diagram says happens at a tick.
public enum MarbleEvent<Output, Failure: Error> {
    /// A value.
    case value(Output)
    /// The completion.
    case completion(Subscribers.Completion<Failure>)
}

/// Parses marble diagrams: `-` is a tick where nothing happens, a character is a value (looked
/// up in `values`), `|` finishes, `#` fails, `(ab)` puts several events in one tick, and
/// spaces are ignored. Every tick, a group included, is one character of time.
public enum MarbleDiagram {
    /// The events of `diagram`, by tick.
    /// - Parameters:
    ///   - diagram: The diagram, such as `"-a--b-(cd)|"`.
    ///   - values: The value each character stands for.
    ///   - error: The failure `#` stands for; `#` traps without one.
    /// - Returns: For each tick with events, its index and its events in order.
    public static func parse<Output, Failure: Error>(
        _ diagram: String, values: [Character: Output], error: Failure?
    ) -> [(tick: Int, events: [MarbleEvent<Output, Failure>])] {
        var result: [(tick: Int, events: [MarbleEvent<Output, Failure>])] = []
        var tick = 0
        var group: [MarbleEvent<Output, Failure>]?
        func event(_ character: Character) -> MarbleEvent<Output, Failure> {
            switch character {
            case "|": return .completion(.finished)
            case "#":
                guard let error else {
                    preconditionFailure("Marble diagram \"\(diagram)\" fails (#) but no error was given")
                }
                return .completion(.failure(error))
            default:
                guard let value = values[character] else {
                    preconditionFailure("Marble diagram \"\(diagram)\" uses '\(character)', which has no value")
                }
                return .value(value)
            }
        }
        for character in diagram where character != " " {
            switch character {
            case "(":
                group = []
            case ")":
                if let events = group, !events.isEmpty { result.append((tick, events)) }
                group = nil
                tick += 1
            case "-":
                tick += 1
            default:
                if group != nil {
                    group?.append(event(character))
                } else {
                    result.append((tick, [event(character)]))
                    tick += 1
                }
            }
        }
        return result
    }

    /// Renders a timeline as a marble diagram: one character per tick up to the last event, `-`
    /// for an empty tick, the token for a tick with one one-character token, and the tokens in
    /// parentheses otherwise.
    /// - Parameter ticks: The tokens of each tick with events, by tick index.
    /// - Returns: The diagram, such as `"----b---c|"`.
    public static func render(_ ticks: [Int: [String]]) -> String {
        guard let last = ticks.keys.max() else { return "" }
        return (0...last).map { tick -> String in
            guard let tokens = ticks[tick], !tokens.isEmpty else { return "-" }
            if tokens.count == 1, tokens[0].count == 1 { return tokens[0] }
            return "(" + tokens.joined() + ")"
        }.joined()
    }
}

/// What a subscriber asked of a marble publisher, and at which tick.
public struct MarbleSubscriptionEvent: Equatable, Sendable, CustomStringConvertible {
    /// The tick of the request or cancel.
    public let tick: Int
    /// The request or cancel.
    public let event: SubscriptionEvent

    /// Creates a record.
    /// - Parameters:
    ///   - tick: The tick of the request or cancel.
    ///   - event: The request or cancel.
    public init(tick: Int, event: SubscriptionEvent) {
        self.tick = tick
        self.event = event
    }

    /// `@3 .cancelled`.
    public var description: String { "@\(tick) \(event)" }
}

/// A cold publisher that plays a marble diagram on a ``TestScheduler``: each subscriber gets
/// the diagram's events at its ticks, counted from the moment it subscribed. Values that find no
/// outstanding demand are dropped, as a subject drops them. Requests and cancels are recorded
/// with their tick, in ``subscriptionEvents``.
///
/// `@unchecked Sendable`: the timeline is immutable, the log is under its mutex, and the scheduler
/// guards itself.
public final class MarblePublisher<Output, Failure: Error, Time: Strideable, Options>: Publisher, @unchecked Sendable
where Time.Stride: SchedulerTimeIntervalConvertible {
    private let timeline: [(tick: Int, events: [MarbleEvent<Output, Failure>])]
    private let scheduler: TestScheduler<Time, Options>
    private let log = Mutex(Unsafe([MarbleSubscriptionEvent]()))

    /// Creates a publisher that plays `diagram` on `scheduler`.
    /// - Parameters:
    ///   - diagram: The diagram; see ``MarbleDiagram``.
    ///   - values: The value each character stands for.
    ///   - error: The failure `#` stands for.
    ///   - scheduler: The scheduler that drives the diagram.
    public init(
        _ diagram: String, values: [Character: Output], error: Failure?, scheduler: TestScheduler<Time, Options>
    ) {
        timeline = MarbleDiagram.parse(diagram, values: values, error: error)
        self.scheduler = scheduler
    }

    /// Every request and cancel the subscribers made, with its tick, in order.
    public var subscriptionEvents: [MarbleSubscriptionEvent] { log.withLock { $0.value } }

    /// Schedules the diagram's events for `subscriber`.
    /// - Parameter subscriber: The subscriber to attach.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = Player(downstream: AnySubscriber(subscriber), publisher: self)
        subscriber.receive(subscription: subscription)
        subscription.start(timeline, on: scheduler)
    }

    fileprivate func record(_ event: SubscriptionEvent) {
        let tick = scheduler.tickIndex(of: scheduler.now)
        log.withLock { $0.value.append(MarbleSubscriptionEvent(tick: tick, event: event)) }
    }

    /// `@unchecked Sendable`: its state is under its mutex; the publisher is a weak reference (weak
    /// loads are thread-safe).
    private final class Player: Subscription, CustomStringConvertible, @unchecked Sendable {
        private struct State {
            var downstream: AnySubscriber<Output, Failure>?
            var demand = Subscribers.Demand.none
            var scheduled: [AnyCancellable] = []
        }

        private let state: Mutex<Unsafe<State>>
        private weak var publisher: MarblePublisher?

        init(downstream: AnySubscriber<Output, Failure>, publisher: MarblePublisher) {
            state = Mutex(Unsafe(State(downstream: downstream)))
            self.publisher = publisher
        }

        var description: String { "MarblePublisher" }

        func start(
            _ timeline: [(tick: Int, events: [MarbleEvent<Output, Failure>])],
            on scheduler: TestScheduler<Time, Options>
        ) {
            let origin = scheduler.now
            let tokens = timeline.map { entry -> AnyCancellable in
                var instant = origin
                for _ in 0..<entry.tick { instant = instant.advanced(by: scheduler.tick) }
                let events = Unsafe(entry.events)
                return scheduler.scheduleCancellable(after: instant) { [weak self] in
                    for event in events.value { self?.play(event) }
                }
            }
            let live = state.withLock { box -> Bool in
                guard box.value.downstream != nil else { return false }
                box.value.scheduled = tokens
                return true
            }
            if !live { tokens.forEach { $0.cancel() } }
        }

        private func play(_ event: MarbleEvent<Output, Failure>) {
            switch event {
            case .value(let value):
                let downstream = state.withLock { box -> Unsafe<AnySubscriber<Output, Failure>>? in
                    guard let downstream = box.value.downstream, box.value.demand > 0 else { return nil }
                    box.value.demand -= 1
                    return Unsafe(downstream)
                }
                guard let downstream else { return }
                let more = downstream.value.receive(value)
                if more > 0 { state.withLock { $0.value.demand += more } }
            case .completion(let completion):
                let released = state.withLock { box -> Unsafe<State> in
                    defer { box.value = State() }
                    return Unsafe(box.value)
                }
                released.value.scheduled.forEach { $0.cancel() }
                released.value.downstream?.receive(completion: completion)
            }
        }

        func request(_ demand: Subscribers.Demand) {
            publisher?.record(.requested(demand))
            state.withLock { $0.value.demand += demand }
        }

        func cancel() {
            publisher?.record(.cancelled)
            let released = state.withLock { box -> Unsafe<State> in
                defer { box.value = State() }
                return Unsafe(box.value)
            }
            released.value.scheduled.forEach { $0.cancel() }
        }
    }
}

/// A subscriber that records what it receives on a ``TestScheduler``'s ticks, to compare with a
/// marble diagram.
///
/// `@unchecked Sendable`: its state is under its mutex; the rest is immutable.
public final class MarbleRecording<Input, Failure: Error, Time: Strideable, Options>: Subscriber, Cancellable,
    @unchecked Sendable
where Time.Stride: SchedulerTimeIntervalConvertible {
    private struct State {
        var events: [(tick: Int, event: MarbleEvent<Input, Failure>)] = []
        var subscription: (any Subscription)?
    }

    private let state = Mutex(Unsafe(State()))
    private let scheduler: TestScheduler<Time, Options>
    private let demand: Subscribers.Demand

    /// Creates a recording.
    /// - Parameters:
    ///   - scheduler: The scheduler whose ticks time the events.
    ///   - demand: What to request on subscription (after each value, nothing more).
    public init(scheduler: TestScheduler<Time, Options>, demand: Subscribers.Demand = .unlimited) {
        self.scheduler = scheduler
        self.demand = demand
    }

    /// A unique identifier.
    public let combineIdentifier = CombineIdentifier()

    /// The values received, in order.
    public var values: [Input] {
        state.withLock { box in
            box.value.events.compactMap { if case .value(let value) = $0.event { value } else { nil } }
        }
    }

    /// The timeline as a marble diagram, each value written by `describe`.
    /// - Parameter describe: How to write a value; its `description` by default.
    /// - Returns: The diagram, such as `"----b---c|"`.
    public func diagram(_ describe: (Input) -> String = { "\($0)" }) -> String {
        let events = state.withLock { Unsafe($0.value.events) }.value
        var ticks: [Int: [String]] = [:]
        for (tick, event) in events {
            switch event {
            case .value(let value): ticks[tick, default: []].append(describe(value))
            case .completion(.finished): ticks[tick, default: []].append("|")
            case .completion(.failure): ticks[tick, default: []].append("#")
            }
        }
        return MarbleDiagram.render(ticks)
    }

    /// Keeps the subscription and requests the initial demand.
    /// - Parameter subscription: The subscription received.
    public func receive(subscription: any Subscription) {
        state.withLock { $0.value.subscription = subscription }
        if demand > 0 { subscription.request(demand) }
    }

    /// Records the value at the current tick.
    /// - Parameter input: The value received.
    /// - Returns: `.none`.
    public func receive(_ input: Input) -> Subscribers.Demand {
        let tick = scheduler.tickIndex(of: scheduler.now)
        state.withLock { $0.value.events.append((tick, .value(input))) }
        return .none
    }

    /// Records the completion at the current tick and lets go of the subscription.
    /// - Parameter completion: The completion received.
    public func receive(completion: Subscribers.Completion<Failure>) {
        let tick = scheduler.tickIndex(of: scheduler.now)
        let released = state.withLock { box -> Unsafe<(any Subscription)?> in
            box.value.events.append((tick, .completion(completion)))
            defer { box.value.subscription = nil }
            return Unsafe(box.value.subscription)
        }
        _ = released
    }

    /// Requests more values.
    /// - Parameter demand: How many.
    public func request(_ demand: Subscribers.Demand) {
        state.withLock { Unsafe($0.value.subscription) }.value?.request(demand)
    }

    /// Cancels the subscription and lets go of it.
    public func cancel() {
        let taken = state.withLock { box -> Unsafe<(any Subscription)?> in
            defer { box.value.subscription = nil }
            return Unsafe(box.value.subscription)
        }
        taken.value?.cancel()
    }
}

extension TestScheduler {
    /// A cold publisher that plays `diagram` on this scheduler, one character per ``tick``.
    /// - Parameters:
    ///   - diagram: The diagram; see ``MarbleDiagram``.
    ///   - values: The value each character stands for.
    ///   - error: The failure `#` stands for.
    /// - Returns: The publisher.
    public func marbles<Output, Failure: Error>(
        _ diagram: String, values: [Character: Output], error: Failure? = nil
    ) -> MarblePublisher<Output, Failure, SchedulerTimeType, SchedulerOptions> {
        MarblePublisher(diagram, values: values, error: error, scheduler: self)
    }

    /// A cold publisher of one-character strings that plays `diagram` on this scheduler: each
    /// value character stands for itself.
    /// - Parameters:
    ///   - diagram: The diagram; see ``MarbleDiagram``.
    ///   - error: The failure `#` stands for.
    /// - Returns: The publisher.
    public func marbles<Failure: Error>(
        _ diagram: String, error: Failure
    ) -> MarblePublisher<String, Failure, SchedulerTimeType, SchedulerOptions> {
        MarblePublisher(diagram, values: Self.identityValues(diagram), error: error, scheduler: self)
    }

    /// A cold publisher of one-character strings that never fails and plays `diagram` on this
    /// scheduler: each value character stands for itself.
    /// - Parameter diagram: The diagram; see ``MarbleDiagram``.
    /// - Returns: The publisher.
    public func marbles(_ diagram: String) -> MarblePublisher<String, Never, SchedulerTimeType, SchedulerOptions> {
        MarblePublisher(diagram, values: Self.identityValues(diagram), error: nil, scheduler: self)
    }

    private static func identityValues(_ diagram: String) -> [Character: String] {
        var values: [Character: String] = [:]
        for character in diagram where !"-|#() ".contains(character) { values[character] = String(character) }
        return values
    }

    /// Subscribes a ``MarbleRecording`` to `publisher`, timed by this scheduler.
    /// - Parameters:
    ///   - publisher: The publisher to record.
    ///   - demand: What the recording requests on subscription.
    /// - Returns: The recording.
    public func record<P: Publisher>(
        _ publisher: P, demand: Subscribers.Demand = .unlimited
    ) -> MarbleRecording<P.Output, P.Failure, SchedulerTimeType, SchedulerOptions> {
        let recording = MarbleRecording<P.Output, P.Failure, SchedulerTimeType, SchedulerOptions>(
            scheduler: self, demand: demand)
        publisher.subscribe(recording)
        return recording
    }
}
