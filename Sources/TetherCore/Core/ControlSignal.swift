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
internal enum ControlSignal {
    case request(Subscribers.Demand)
    case cancel
}
