/// What a slot for a subscription holds while it has none: before the subscription arrives, and
/// once it is let go of. A stateless stand-in, so that the slot is a plain `any Subscription`
/// rather than an optional one. Assigning, copying or dropping an optional existential goes
/// through `Optional`'s run-time value witnesses, after a metadata lookup (about 100 instructions
/// each); a plain one is copied and destroyed directly (Docs/FastWithoutTheSpecialiser.md,
/// "Subscriptions moved out, not copied").
///
/// Requests and cancels do nothing, so a caller may hand on a request or a cancel to what a slot
/// holds without asking first whether it holds a subscription. Made without a global's one-time
/// initialisation, which ``Subscriptions/empty`` needs for its identifier. Never handed to a
/// subscriber.
@usableFromInline
internal struct UnattachedSubscription: Subscription {
    @inlinable
    init() {}

    /// The empty subscription's: a stand-in has no identity of its own.
    @usableFromInline
    var combineIdentifier: CombineIdentifier { Subscriptions.empty.combineIdentifier }

    /// Does nothing.
    @usableFromInline
    func request(_ demand: Subscribers.Demand) {}

    /// Does nothing.
    @usableFromInline
    func cancel() {}

    /// The subscription in `slot`, moved out, with a stand-in left in its place: no copy of the
    /// existential and no release of the original.
    @inlinable
    static func take(from slot: inout any Subscription) -> any Subscription {
        var taken: any Subscription = UnattachedSubscription()
        swap(&taken, &slot)
        return taken
    }
}
