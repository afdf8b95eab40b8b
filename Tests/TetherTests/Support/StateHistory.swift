import Tether
@testable import TetherCore
import TetherTesting

/// One event a state-machine test plays on a state, and what the state answered, in words.
struct StateStep<State> {
    let run: (inout State) -> String

    init(_ run: @escaping (inout State) -> String) {
        self.run = run
    }
}

/// Plays `steps` on `state`, with no threads and no publishers: for each, what the state
/// answered and then, after `->`, where it stood as `describe` puts it. A test asserts the whole
/// history, so that an answer or a change of state nobody looked for shows up.
func stateHistory<State>(_ state: State, _ steps: [StateStep<State>], describe: (State) -> String) -> [String] {
    var state = state
    return steps.map { step in
        let answer = step.run(&state)
        return "\(answer) -> \(describe(state))"
    }
}

/// The subscriptions a state-machine test hands its state, each made with a name to describe it
/// by.
struct NamedSubscriptions {
    private let named: [(name: String, subscription: RecordingSubscription)]

    init(_ names: String...) {
        named = names.map { ($0, RecordingSubscription()) }
    }

    /// The subscription of that name.
    subscript(name: String) -> RecordingSubscription {
        guard let found = named.first(where: { $0.name == name }) else { preconditionFailure("no \(name)") }
        return found.subscription
    }

    /// The name of `subscription`: `nil` when there is none, `other` when it is not named here.
    func callAsFunction(_ subscription: (any Subscription)?) -> String {
        guard let subscription else { return "nil" }
        return named.first { $0.subscription === (subscription as AnyObject) }?.name ?? "other"
    }

    /// The name of `subscription`, as calling the set gives it.
    func name(_ subscription: (any Subscription)?) -> String {
        self(subscription)
    }

    /// An upstream's status in the words of its cases, with its subscription named:
    /// `awaiting`, `subscribed(name)`, `terminal`.
    func status(_ status: UpstreamStatus) -> String {
        switch status {
        case .awaitingSubscription: "awaiting"
        case .subscribed(let subscription): "subscribed(\(self(subscription)))"
        case .terminal: "terminal"
        }
    }

    /// An upstream's status, with its subscription named.
    func describe(_ status: UpstreamStatus) -> String {
        switch status {
        case .awaitingSubscription: return "awaiting"
        case .subscribed(let subscription): return self(subscription)
        case .terminal: return "over"
        }
    }
}
