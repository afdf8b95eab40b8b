import Tether
import TetherTesting

/// What a subscriber that requests `.unlimited` receives from `publisher`, event by event
/// (`.subscription`, `.value(1)`, `.completion(.finished)`), for publishers whose output or
/// failure cannot be compared directly (`any Error`).
func history<P: Publisher>(of publisher: P) -> [String] {
    let recorder = RecordingSubscriber<P.Output, P.Failure>()
    publisher.subscribe(recorder)
    return recorder.events.map(\.description)
}

/// A closure that ignores its argument and returns `value`; of type `(Never) -> R` where an
/// operator asks for a transform of an error that cannot happen.
func constant<T, R>(_ value: R) -> (T) -> R {
    { _ in value }
}

/// The error the throwing closures of the value publisher tests throw.
struct Oops: Error, Equatable, CustomStringConvertible {
    var description: String { "Oops" }
}

/// A throwing closure that counts its calls, for checking how often an operator runs it.
final class CallCounter {
    private(set) var calls = 0

    func predicate<T>(_ answer: Bool) -> (T) -> Bool {
        { _ in
            self.calls += 1; return answer
        }
    }

    func comparison<T>(_ answer: Bool) -> (T, T) -> Bool {
        { _, _ in
            self.calls += 1; return answer
        }
    }

    func throwingPredicate<T>() -> (T) throws -> Bool {
        { _ in
            self.calls += 1; throw Oops()
        }
    }

    func throwingComparison<T>() -> (T, T) throws -> Bool {
        { _, _ in
            self.calls += 1; throw Oops()
        }
    }
}
