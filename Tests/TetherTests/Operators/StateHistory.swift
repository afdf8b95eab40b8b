@testable import TetherCore
import TetherTesting

/// Recording subscriptions known by name, so that a state machine's history says which one an
/// answer or a state holds.
struct NamedSubscriptions {
    private let named: [(name: String, subscription: RecordingSubscription)]

    init(_ names: String...) {
        named = names.map { ($0, RecordingSubscription()) }
    }

    /// The subscription called `name`.
    subscript(_ name: String) -> RecordingSubscription {
        guard let entry = named.first(where: { $0.name == name }) else { preconditionFailure("no \(name)") }
        return entry.subscription
    }

    /// The name of `subscription`: "nil" for none, "other" for one not made here.
    func name(_ subscription: (any Subscription)?) -> String {
        guard let subscription = subscription as? RecordingSubscription else { return "nil" }
        return named.first { $0.subscription === subscription }?.name ?? "other"
    }

    /// `status` in words, the subscription named.
    func describe(_ status: UpstreamStatus) -> String {
        switch status {
        case .awaitingSubscription: "awaiting"
        case .subscribed(let subscription): "subscribed(\(name(subscription)))"
        case .terminal: "terminal"
        }
    }
}

/// One event on a state machine, answering in words what the machine returned.
struct StateStep<State> {
    let run: (inout State) -> String
}

/// Runs `steps` in order on `state`: each answer, then where the state stood after it.
func stateHistory<State>(_ state: State, _ steps: [StateStep<State>], describe: (State) -> String) -> [String] {
    var state = state
    return steps.map { step in
        let answer = step.run(&state)
        return "\(answer) -> \(describe(state))"
    }
}
