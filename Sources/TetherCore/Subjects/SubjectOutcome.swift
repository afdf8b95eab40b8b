/// A completion with its failure type erased, kept where a subject's class stores one.
///
/// A class's `deinit` runs unspecialised. A stored `Subscribers.Completion<Failure>?` has a layout
/// that depends on `Failure`, so destroying one there looks its type up in the run time's metadata
/// cache (two lookups, `Optional` and `Completion`, on every deinit, whether or not a completion
/// was ever stored). This enum's layout is the same for every failure type, so the classes that
/// keep a completion (``SubjectHub``'s subjects, ``SubjectSink``) keep it as this and convert at
/// the edges, where the failure type is known.
@usableFromInline
package enum SubjectOutcome {
    case finished
    case failed(any Error)

    /// `completion`, with its failure type erased.
    @inlinable
    package init<Failure: Error>(_ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: self = .finished
        case .failure(let error): self = .failed(error)
        }
    }

    /// The completion this was made from (see ``init(_:)``).
    @inlinable
    package func completion<Failure: Error>(_: Failure.Type = Failure.self) -> Subscribers.Completion<Failure> {
        switch self {
        case .finished: .finished
        // Made from a `Subscribers.Completion<Failure>` by `init(_:)`, so the cast cannot fail.
        case .failed(let error): .failure(error as! Failure)
        }
    }
}
