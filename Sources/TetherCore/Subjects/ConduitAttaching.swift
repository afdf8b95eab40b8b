/// A subject that attaches each subscriber to a ``SubjectSubscription`` of its own, keeping one
/// larger than an ``AnySubscriber`` erased (see ``conduitErases(_:)``).
@usableFromInline
package protocol ConduitAttaching<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    /// Attaches `subscriber` as given.
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension ConduitAttaching {
    /// Attaches `subscriber`, erased when it is larger than an ``AnySubscriber``: what a subject's
    /// `receive(subscriber:)` does.
    @inlinable
    package func attachKeeping<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        if conduitErases(S.self) {
            attach(AnySubscriber(subscriber))
        } else {
            attach(subscriber)
        }
    }
}
