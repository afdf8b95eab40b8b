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

/// A state machine's outcome as the tests read it: the outcome's calls, and its step with the
/// output the machine put in the place it was handed.
struct SeenOutcome<Output> {
    let outcome: CombiningOutcome
    let step: SeenStep<Output>

    /// Runs `event` with a place for the output, as the subscription does, and reads what it did.
    init(_ event: (UnsafeMutablePointer<Output>) -> CombiningOutcome) {
        let place = UnsafeMutablePointer<Output>.allocate(capacity: 1)
        defer { place.deallocate() }
        outcome = event(place)
        switch outcome.step {
        case .idle: step = .idle
        case .release: step = .release
        case .deliver: step = .deliver(place.move())
        case .complete(let completion): step = .complete(completion)
        }
    }

    /// An event that delivers nothing, read.
    init(_ outcome: CombiningOutcome) {
        self.init { _ in outcome }
    }

    var request: [any Subscription]? { outcome.request }
    var demand: Subscribers.Demand { outcome.demand }
    var skip: Int { outcome.skip }
    var returned: Subscribers.Demand { outcome.returned }
    var cancel: [any Subscription]? { outcome.cancel }
}

extension CombiningState {
    /// ``CombiningState/request(_:into:)``, read.
    mutating func requested(_ more: Subscribers.Demand) -> SeenOutcome<Slots.Output> {
        SeenOutcome { request(more, into: $0) }
    }

    /// ``CombiningState/delivered(_:into:)``, read.
    mutating func afterDelivery(_ more: Subscribers.Demand) -> SeenOutcome<Slots.Output> {
        SeenOutcome { delivered(more, into: $0) }
    }

    /// ``CombiningState/complete(_:_:)``, read.
    mutating func completed(_ index: Int, _ completion: Subscribers.Completion<any Error>) -> SeenOutcome<Slots.Output>
    {
        SeenOutcome(complete(index, completion))
    }
}
