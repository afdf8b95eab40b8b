/// What a buffer's drain loop leaves the upstream owed when it goes idle: nothing, or a demand and
/// the subscription to ask (`.keepFull` asks back what it delivered).
///
/// An enum of its own, not generic, rather than a demand beside an optional subscription: that
/// optional, handed out of every drain and dropped, was copied and destroyed through `Optional`'s
/// value witnesses even when empty (Docs/FastWithoutTheSpecialiser.md, "Copies the compiler makes
/// through value witnesses").
@usableFromInline
internal enum BufferRefill {
    case nothing
    case request(Subscribers.Demand, from: any Subscription)

    /// The demand owed, for a drain run on the upstream's own path, which returns it.
    @inlinable
    internal consuming func demand() -> Subscribers.Demand {
        switch consume self {
        case .nothing:
            return .none
        case .request(let demand, _):
            return demand
        }
    }

    /// Asks the upstream for what it is owed, if anything.
    @inlinable
    internal consuming func request() {
        switch consume self {
        case .nothing:
            return
        case .request(let demand, let upstream):
            upstream.request(demand)
        }
    }
}
