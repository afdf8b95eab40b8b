@testable import TetherCore

/// A zip's or combine-latest's step as the state machine tests read it: with the output handed
/// out beside a `.deliver`.
enum SeenStep<Output> {
    case idle
    case release
    case deliver(Output)
    case complete(Subscribers.Completion<any Error>)

    /// The output this step delivers, if it delivers one.
    var values: Output? {
        guard case .deliver(let output) = self else { return nil }
        return output
    }
}

/// A state machine's handout as the tests read it: the outcome's calls, and its step with the
/// output.
struct SeenOutcome<Output> {
    let outcome: CombiningOutcome
    let step: SeenStep<Output>

    init(_ handout: CombiningHandout<Output>) {
        outcome = handout.outcome
        switch handout.outcome.step {
        case .idle: step = .idle
        case .release: step = .release
        case .deliver: step = .deliver(handout.output!)
        case .complete(let completion): step = .complete(completion)
        }
    }

    var request: [any Subscription]? { outcome.request }
    var demand: Subscribers.Demand { outcome.demand }
    var skip: Int { outcome.skip }
    var returned: Subscribers.Demand { outcome.returned }
    var cancel: [any Subscription]? { outcome.cancel }
}

extension CombiningState {
    /// ``CombiningState/request(_:)``, read.
    mutating func requested(_ more: Subscribers.Demand) -> SeenOutcome<Slots.Output> {
        SeenOutcome(request(more))
    }

    /// ``CombiningState/delivered(_:)``, read.
    mutating func afterDelivery(_ more: Subscribers.Demand) -> SeenOutcome<Slots.Output> {
        SeenOutcome(delivered(more))
    }

    /// ``CombiningState/complete(_:_:)``, read.
    mutating func completed(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> SeenOutcome<Slots.Output>
    {
        SeenOutcome(complete(index, completion))
    }
}
