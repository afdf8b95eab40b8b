import TetherCore

/// One signal of a publisher, as a value: an output, a failure, or the end of the stream.
///
/// ``Publisher/materialize()`` turns a publisher's signals into these, and
/// ``Publisher/dematerialize()`` turns them back.
public enum Event<Output, Failure: Error> {
    /// The publisher produced a value.
    case value(Output)
    /// The publisher failed with an error.
    case failure(Failure)
    /// The publisher finished normally.
    case finished
}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}

extension Event: Hashable where Output: Hashable, Failure: Hashable {}

extension Event: Sendable where Output: Sendable, Failure: Sendable {}

extension Event: CustomStringConvertible {
    /// `value(…)`, `failure(…)` or `finished`.
    public var description: String {
        switch self {
        case .value(let value): "value(\(value))"
        case .failure(let failure): "failure(\(failure))"
        case .finished: "finished"
        }
    }
}
