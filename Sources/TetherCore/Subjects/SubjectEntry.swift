/// What a subject needs from each of its subscriptions beyond values: completion.
@usableFromInline
package protocol SubjectConduitProtocol<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error

    func finish(_ completion: Subscribers.Completion<Failure>)
}

/// A subject's handle on one subscription: the conduit, and its value entry point.
///
/// `offer` is made where the subscriber's type is known (in the subject's `receive(subscriber:)`,
/// which specialises in the caller's module), so a `send` reaches a fully specialised delivery
/// path: no dynamic dispatch and no run-time generic metadata per value. It captures nothing,
/// so it costs no allocation. It takes the conduit as the entry keeps it, so a send hands it over
/// borrowed: converting it to `AnyObject` for the call made a copy, one more retain and release
/// of the conduit a value (4–5 ns of a 45 ns send).
@usableFromInline
package struct SubjectEntry<Output, Failure: Error> {
    @usableFromInline package let conduit: any SubjectConduitProtocol<Output, Failure>
    @usableFromInline package let offer: (any SubjectConduitProtocol<Output, Failure>, Output) -> Void

    @inlinable
    package init<Downstream: Subscriber>(_ conduit: SubjectSubscription<Downstream>)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        self.conduit = conduit
        self.offer = { unsafeDowncast($0 as AnyObject, to: SubjectSubscription<Downstream>.self).offer($1) }
    }

    /// Offers `value` to the subscription.
    @inlinable
    package func send(_ value: Output) {
        offer(conduit, value)
    }

    /// An entry for a conduit of another kind (a subject's ``SubjectSink``, TetherExtras' replay
    /// conduit).
    @inlinable
    package init(
        conduit: any SubjectConduitProtocol<Output, Failure>,
        offer: @escaping (any SubjectConduitProtocol<Output, Failure>, Output) -> Void
    ) {
        self.conduit = conduit
        self.offer = offer
    }
}
