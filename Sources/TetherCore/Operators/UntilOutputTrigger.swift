/// The subscription an ``UntilOutputTrigger`` reports to: `drop(untilOutputFrom:)`'s or
/// `prefix(untilOutputFrom:)`'s.
@usableFromInline
internal protocol UntilOutputTarget: Subscription {
    associatedtype TriggerFailure: Error

    /// The trigger publisher's subscription arrived.
    func attachTrigger(_ subscription: any Subscription)
    /// The trigger publisher sent a value.
    func triggerFired()
    /// The trigger publisher completed.
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>)
}

/// The subscriber attached to the trigger publisher of `drop(untilOutputFrom:)` and
/// `prefix(untilOutputFrom:)`. As in Combine, it shares its subscription's combine identifier,
/// and describes and reflects itself only where the subscription does.
@usableFromInline
internal struct UntilOutputTrigger<Target: UntilOutputTarget, Input>: Subscriber {
    @usableFromInline typealias Failure = Target.TriggerFailure

    @usableFromInline let target: Target

    @inlinable
    init(target: Target) {
        self.target = target
    }

    @inlinable
    var combineIdentifier: CombineIdentifier { target.combineIdentifier }

    @inlinable
    func receive(subscription: any Subscription) {
        target.attachTrigger(subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        target.triggerFired()
        return .none
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        target.triggerCompleted(completion)
    }
}

extension UntilOutputTrigger: CustomStringConvertible where Target: CustomStringConvertible {
    @usableFromInline var description: String { target.description }
}

extension UntilOutputTrigger: CustomReflectable where Target: CustomReflectable {
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension UntilOutputTrigger: CustomPlaygroundDisplayConvertible where Target: CustomPlaygroundDisplayConvertible {
    @usableFromInline var playgroundDescription: Any { target.playgroundDescription }
}
