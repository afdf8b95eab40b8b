/// A subscription's control signal, for the specialised control entry some subscriptions keep.
///
/// A caller that holds a subscription as `any Subscription` (every subscriber does) reaches its
/// `request` and `cancel` through the protocol witness, which runs the *unspecialised* body: there,
/// every generic type the body touches (its state, an optional of the subscriber, a tuple) costs
/// a run-time metadata lookup, hundreds of instructions each. A subscription on a path that is
/// hot for demand-paced subscribers (`values`, `request(.max(1))` per element, subscribe and
/// cancel) therefore keeps a closure made in its `@inlinable` initialiser, where its type is
/// known, which jumps straight back into specialised code: the witness only forwards to it.
@usableFromInline
package enum ControlSignal {
    case request(Subscribers.Demand)
    case cancel
}

/// A subscription that keeps a specialised control entry (see ``ControlSignal``): its own
/// `request` and `cancel` forward to the entry, which runs these.
///
/// Each subscription writes its two one-line forwarders itself. Given once, in an extension of
/// this protocol, they became the witnesses of `Subscription`'s requirements as generic functions
/// that read the entry through this protocol's table: about 85 instructions more for every
/// `request` and `cancel` (a `first()`, `delay` or `debounce` subscribed and cancelled: 7,666 →
/// 7,835, 9,392 → 9,560, 12,987 → 13,156 in a profiling loop), on a path that a subscriber asking
/// `request(.max(1))` for every value takes once a value.
@usableFromInline
package protocol SpecializedControl: AnyObject {
    func requestNow(_ demand: Subscribers.Demand)
    func cancelNow()
}

extension SpecializedControl {

    /// The entry to keep, made in the subscription's `@inlinable` initialiser so that it
    /// specialises for the concrete subscription type.
    @inlinable
    package static var controlEntry: (AnyObject, ControlSignal) -> Void {
        { object, signal in
            let subscription = unsafeDowncast(object, to: Self.self)
            switch signal {
            case .request(let demand): subscription.requestNow(demand)
            case .cancel: subscription.cancelNow()
            }
        }
    }
}
